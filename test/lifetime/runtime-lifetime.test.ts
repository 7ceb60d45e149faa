/**
 * svc-runtime ends when it should, promptly and cleanly, through real processes: when its parent
 * (the host) is killed with -9, when its pipes close, on SIGTERM and on SIGHUP. Each time the
 * extension's exec child is killed and seq.json holds the last seq sent.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { allGone, childAppears, childrenOf, cpuMsOf, isRunning } from "./processes.js";

const RUNTIME_MAIN = fileURLToPath(new URL("../../runtime/dist/bundle/main.js", import.meta.url));
const RELAY = fileURLToPath(new URL("./relay-parent.mjs", import.meta.url));
const ID = "test.lifetime";
/** Emits one blip, starts a long exec child, and answers while the child runs. */
const CODE = `module.exports = { async update(ctx) {
  await ctx.emit({ key: "a", title: "A", layout: "stat", data: { value: 1 } });
  ctx.exec("sleep", ["600"]).catch(() => {});
  return {};
} };`;

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

/** A line client over a child's stdio; with `relay`, the runtime runs under a relay parent. */
function start(relay: boolean) {
  const root = mkdtempSync(join(tmpdir(), "svc-lifetime-"));
  const extension = join(root, "Extensions", ID);
  mkdirSync(join(extension, "dist"), { recursive: true });
  writeFileSync(join(extension, "dist", "index.js"), CODE);
  const args = relay ? [RELAY, process.execPath, RUNTIME_MAIN] : [RUNTIME_MAIN];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] }) as ChildProcessWithoutNullStreams;
  child.stdin.on("error", () => {});
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const messages: any[] = [];
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line) messages.push(JSON.parse(line));
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  let nextId = 1;
  const call = async (method: string, params: unknown) => {
    const id = nextId++;
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    for (let waited = 0; waited < 15_000; waited += 20) {
      const answer = messages.find((m) => m.id === id);
      if (answer) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no answer to ${method}; stderr: ${stderr}`);
  };
  cleanup.push(() => {
    for (const pid of [child.pid!, ...childrenOf(child.pid!)]) if (isRunning(pid)) process.kill(pid, "SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });
  return {
    child,
    messages,
    exited,
    root,
    stderr: () => stderr,
    /**
     * initialize, load, run: one blip sent, one exec child running. Returns the runtime's and the exec child's pids.
     */
    async bringUp(): Promise<{ runtime: number; sleeper: number }> {
      const runtime = relay ? await waitForRelayedPid(messages) : child.pid!;
      expect((await call("initialize", { protocolVersion: 1, dataDir: join(root, "Data") })).result).toMatchObject({
        protocolVersion: 1,
      });
      const manifest = { id: ID, version: "1.0.0", permissions: { network: [], files: [], exec: ["sleep"] } };
      expect(await call("extension.load", { id: ID, path: extension, manifest, preferences: {} })).toMatchObject({
        result: {},
      });
      expect(await call("extension.run", { id: ID, trigger: { type: "launch" } })).toMatchObject({ result: {} });
      expect(messages.some((m) => m.method === "blip.update" && m.params.payload.seq === 1)).toBe(true);
      const sleeper = await childAppears(runtime, ["/usr/bin/sleep 600", "sleep 600"], 15_000);
      expect(sleeper, "the exec child runs").toBeDefined();
      return { runtime, sleeper: sleeper! };
    },
    seqFile: () => JSON.parse(readFileSync(join(root, "Data", ID, "seq.json"), "utf8")),
  };
}

async function waitForRelayedPid(messages: any[]): Promise<number> {
  while (!messages.some((m) => m.relayedPid)) await new Promise((resolve) => setTimeout(resolve, 10));
  return messages.find((m) => m.relayedPid).relayedPid as number;
}

describe("svc-runtime ends when it should", () => {
  it("when its parent is killed with -9 (stdin ends, stdout and stderr break): gone within seconds, not spinning, nothing lost", async () => {
    const run = start(true);
    const { runtime, sleeper } = await run.bringUp();
    run.child.kill("SIGKILL");
    const took = await allGone([runtime, sleeper], 5000);
    expect(took).toBeLessThan(5000);
    expect(run.seqFile()).toEqual({ floor: 0, last: { [`${ID}/a`]: 1 } });
  });

  it("when its pipes close while the parent lives", async () => {
    const run = start(false);
    const { runtime, sleeper } = await run.bringUp();
    run.child.stdout.destroy();
    run.child.stderr.destroy();
    run.child.stdin.end();
    await allGone([sleeper], 5000);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(isRunning(runtime)).toBe(false);
    expect(run.seqFile()).toEqual({ floor: 0, last: { [`${ID}/a`]: 1 } });
  });

  it.each(["SIGTERM", "SIGHUP"] as const)("on %s: exit 0, the exec child killed, seq.json written", async (signal) => {
    const run = start(false);
    const { sleeper } = await run.bringUp();
    run.child.kill(signal);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    await allGone([sleeper], 2000);
    expect(run.seqFile()).toEqual({ floor: 0, last: { [`${ID}/a`]: 1 } });
    expect(run.stderr()).toContain(`svc-runtime: ${signal}: stopping`);
  });

  it("with stderr closed, a failing write never loops: it stops on stdin's end without spinning", async () => {
    const run = start(false);
    const { runtime } = await run.bringUp();
    run.child.stderr.destroy();
    const cpuBefore = cpuMsOf(runtime);
    // Lines that make it write to stderr (notes about bad input), with nobody reading stderr.
    for (let i = 0; i < 5; i++) run.child.stdin.write("not json\n");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(isRunning(runtime)).toBe(true);
    expect(cpuMsOf(runtime) - cpuBefore).toBeLessThan(300);
    run.child.stdin.end();
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it("learns of its parent's death from stdin alone: no timer wakes it every second (svc-host keeps its look at the parent)", async () => {
    // A preload counts the intervals armed, by period; the runtime ends on stdin's end and says.
    const count = `let armed = {}; const arm = globalThis.setInterval;
      globalThis.setInterval = (f, ms, ...a) => ((armed[ms] = (armed[ms] ?? 0) + 1), arm(f, ms, ...a));
      process.on("exit", () => process.stderr.write("intervals " + JSON.stringify(armed) + "\\n"));`;
    const preload = `data:text/javascript,${encodeURIComponent(count)}`;
    const runtime = spawn(process.execPath, ["--import", preload, RUNTIME_MAIN], { stdio: ["pipe", "pipe", "pipe"] });
    cleanup.push(() => void (isRunning(runtime.pid!) && runtime.kill("SIGKILL")));
    const exited = new Promise((resolve) => runtime.on("exit", resolve));
    let stderr = "";
    runtime.stderr.on("data", (chunk) => (stderr += chunk));
    const answered = new Promise((resolve) => runtime.stdout.once("data", resolve));
    const root = mkdtempSync(join(tmpdir(), "svc-lifetime-"));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    runtime.stdin.write(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, dataDir: root } }) +
        "\n",
    );
    await answered;
    runtime.stdin.end();
    await exited;
    expect(stderr).toMatch(/^intervals /m);
    const armed = JSON.parse(/intervals (.*)/.exec(stderr)![1]) as Record<string, number>;
    expect(armed["1000"] ?? 0).toBe(0);

    const lifetime = pathToFileURL(fileURLToPath(new URL("../../runtime/dist/process-lifetime.js", import.meta.url)));
    const byDefault = spawnSync(process.execPath, [
      "--import",
      preload,
      "--input-type=module",
      "-e",
      `const { endWithParent } = await import(${JSON.stringify(lifetime.href)}); endWithParent({ stop() {}, note() {} }); process.exit(0);`,
    ]).stderr.toString();
    expect(byDefault).toContain('intervals {"1000":1}');
  });
});
