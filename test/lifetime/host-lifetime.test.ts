/**
 * svc-host ends when it should, promptly and cleanly, through real processes: when its parent
 * (a terminal, the desktop app) is killed with -9, when its stdout and stderr close, on SIGTERM
 * and on SIGHUP. Each time its svc-runtime ends too and the blip store holds the last blip; a
 * write to a closed stream never loops.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { HOST_MAIN, counterCode, makeWorld, writeExtension, type World } from "../host/harness.js";
import { allGone, childrenOf, commandLine, isRunning } from "./processes.js";

const RELAY = fileURLToPath(new URL("./relay-parent.mjs", import.meta.url));
const ID = "test.host-lifetime";
const BLIP = `${ID}/main`;

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0)) await undo();
});

/** svc-host in a fresh world, directly or under a relay parent; events are its JSON lines. */
async function start(relay: boolean, env: Record<string, string> = {}) {
  const world: World = await makeWorld();
  await writeExtension(join(world.bundled, ID), { svc: { id: ID, title: "Lifetime" }, code: counterCode() });
  const args = relay ? [RELAY, process.execPath, HOST_MAIN] : [HOST_MAIN];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: world.userHome,
      SVC_HOME: world.home,
      SVC_PORT: "0",
      SVC_BUNDLED_EXTENSIONS: world.bundled,
      SVC_HOST_OUTPUT: "json",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  }) as ChildProcessWithoutNullStreams;
  child.stdin.on("error", () => {});
  const events: any[] = [];
  let buffered = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (match: (event: any) => boolean) => {
    for (let waited = 0; waited < 20_000; waited += 20) {
      const found = events.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no such event; stderr: ${stderr}`);
  };
  const host = relay ? ((await waitFor((e) => e.relayedPid)).relayedPid as number) : child.pid!;
  cleanup.push(async () => {
    for (const pid of [child.pid!, host, ...childrenOf(host)]) if (isRunning(pid)) process.kill(pid, "SIGKILL");
    await world.remove();
  });
  await waitFor((e) => e.type === "blip" && e.id === BLIP);
  const runtime = childrenOf(host).find((pid) => commandLine(pid).includes("runtime/dist/bundle/main.js"));
  expect(runtime, "svc-host runs its svc-runtime").toBeDefined();
  return {
    child,
    events,
    exited,
    host,
    runtime: runtime!,
    stderr: () => stderr,
    /** The blip ids in the store's file. */
    storedBlips: () => JSON.stringify(JSON.parse(readFileSync(join(world.home, "blips.json"), "utf8"))),
  };
}

describe("svc-host ends when it should", () => {
  it("when its parent is killed with -9: svc-host and its svc-runtime are gone within seconds, the blip store written", async () => {
    const run = await start(true);
    run.child.kill("SIGKILL");
    await allGone([run.host, run.runtime], 8000);
    expect(run.storedBlips()).toContain(BLIP);
  });

  it("when its stdout and stderr close while the parent lives, the next write ends it (never an EPIPE loop)", async () => {
    const run = await start(false, { SVC_HOST_CONTROL: "stdin", SVC_HOST_CLOCK: "manual" });
    run.child.stdout.destroy();
    run.child.stderr.destroy();
    // Something to show: the host writes its answer to stdout, which is gone.
    run.child.stdin.write(`${JSON.stringify({ command: "run", id: ID })}\n`);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    await allGone([run.runtime], 5000);
    expect(run.storedBlips()).toContain(BLIP);
  });

  it.each(["SIGTERM", "SIGHUP"] as const)(
    "on %s: exit 0, svc-runtime ended, the blip store written",
    async (signal) => {
      const run = await start(false);
      run.child.kill(signal);
      expect(await run.exited).toEqual({ code: 0, signal: null });
      await allGone([run.runtime], 5000);
      expect(run.storedBlips()).toContain(BLIP);
      expect(run.stderr()).toContain(`svc-host: ${signal}: stopping`);
    },
  );
});
