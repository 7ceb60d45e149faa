/**
 * Who is speaking, on the terminal of the REAL host (`SVC_HOST_OUTPUT=lines` and `live`, the
 * runtime and the extensions' code running): an extension titled "svc" that writes "svc: your
 * keychain is locked" is framed with its own id, two extensions both titled "Focus" each carry
 * their id, and a pushed blip says "pushed". The names come from the manifests on disk, whatever
 * the code sends.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOST_MAIN, makeWorld, post, writeExtension, type World } from "./harness.js";

const LURE = "svc: your keychain is locked — type your login password";

/** Writes the three extensions: a mimic of svc and two "Focus". */
async function writeSpeakers(world: World): Promise<void> {
  await writeExtension(join(world.bundled, "mimic"), {
    svc: { id: "com.evil.keychain", title: "svc" },
    code: `module.exports = { default: { async update(ctx) {
  await ctx.emit({ key: "lock", title: "svc", layout: "stat", state: "warning", data: { value: "locked" } });
  await ctx.notify(${JSON.stringify(LURE)}, "ok\\nsvc: this is safe");
} } };`,
  });
  for (const [folder, id] of [
    ["focus", "dev.test.focus"],
    ["fake-focus", "com.evil.focus"],
  ])
    await writeExtension(join(world.bundled, folder), {
      svc: { id, title: "Focus" },
      code: `module.exports = { default: { async update(ctx) { await ctx.notify("Break over"); } } };`,
    });
}

interface TextHost {
  /** Resolves once the output holds a line equal to `line` (timestamps and cursor moves taken off). */
  waitForLine(line: string): Promise<void>;
  stop(): Promise<void>;
}

/** The host with a person's display on a pipe, its output read as text. */
function startTextHost(world: World, output: "lines" | "live"): TextHost {
  const child = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: world.userHome,
      SVC_HOME: world.home,
      SVC_PORT: "0",
      SVC_BUNDLED_EXTENSIONS: world.bundled,
      SVC_HOST_OUTPUT: output,
      SVC_HOST_CLOCK: "manual",
    },
  });
  let text = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    text += chunk;
    for (const wake of [...waiters]) wake();
  });
  // Lines as a person reads them: our own cursor moves (`ESC [ n F`, `ESC [ J`) and the time taken off.
  const lines = () =>
    text
      .replace(/\x1b\[\d*F|\x1b\[J|\r/g, "\n")
      .split("\n")
      .map((line) => line.replace(/^\d{2}:\d{2}:\d{2} /, "").trim());
  return {
    waitForLine: (line) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!lines().includes(line)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line "${line}" within 20 s; output:\n${text.slice(-4000)}\nstderr:\n${stderr}`));
        }, 20_000);
        waiters.add(check);
        check();
      }),
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

let world: World | undefined;
let host: TextHost | undefined;
afterEach(async () => {
  await host?.stop();
  await world?.remove();
  host = undefined;
  world = undefined;
});

describe("every notify line and blip line on the host's terminal names who sent it", () => {
  it("one line per change: the mimic of svc and both Focus carry their ids, a pushed blip says pushed", async () => {
    world = await makeWorld();
    await writeSpeakers(world);
    host = startTextHost(world, "lines");
    await host.waitForLine(`🔔 [svc · com.evil.keychain] ${LURE} — ok\\u{a}svc: this is safe`);
    await host.waitForLine("! [svc · com.evil.keychain] svc  locked  [com.evil.keychain/lock #1]");
    await host.waitForLine("🔔 [Focus · dev.test.focus] Break over");
    await host.waitForLine("🔔 [Focus · com.evil.focus] Break over");
    const pushed = await post(world, "/v1/blips", {
      id: "deploy",
      title: "svc: update ready",
      layout: "stat",
      data: { value: "1.2" },
    });
    expect(pushed.status).toBe(200);
    await host.waitForLine("• [pushed] svc: update ready  1.2  [webhook/deploy #1]");
  }, 60_000);

  it("the live panel: each blip row and the notify line under it", async () => {
    world = await makeWorld();
    await writeSpeakers(world);
    host = startTextHost(world, "live");
    await host.waitForLine("! [svc · com.evil.keychain] svc  locked");
    // Cut to the 80 columns a pipe is given, as every panel row is.
    const row = [...`  🔔 [svc · com.evil.keychain] ${LURE} — ok\\u{a}svc: this is safe`];
    await host.waitForLine(`${row.slice(0, 78).join("").trim()}…`);
  }, 60_000);
});
