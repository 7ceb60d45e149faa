/** The runtime child process: what its extensions' programs leave behind dies with it. */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuntimeProcess } from "./runtime-process.js";
import { running } from "../../../test/process-state.js";

let folder: string;
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("RuntimeProcess", () => {
  it("kills what the runtime's programs left running (a setsid child) when the runtime dies by SIGKILL", async () => {
    folder = mkdtempSync(join(tmpdir(), "svc-runtime-process-"));
    const pidFile = join(folder, "pid");
    // A stand-in runtime: starts a program the way exec does (tagged below SVC_EXEC_OWNER), whose
    // setsid child outlives it, then waits to be killed.
    const main = join(folder, "fake-runtime.mjs");
    writeFileSync(
      main,
      `
      import { spawn } from "node:child_process";
      const tag = process.env.SVC_EXEC_OWNER + ".svc-test.1.1";
      spawn("sh", ["-c", "setsid sleep 30 & echo $! > ${pidFile}"], { env: { PATH: process.env.PATH, SVC_EXEC_TAG: tag }, detached: true, stdio: "ignore" });
      setInterval(() => {}, 1000);`,
    );
    const child = RuntimeProcess.spawn({ main, onStderr: () => {}, onNote: () => {} });
    const until = Date.now() + 5000;
    while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim()) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    const orphan = Number(readFileSync(pidFile, "utf8"));
    expect(running(orphan)).toBe(true);
    process.kill(child.pid!, "SIGKILL");
    await child.stop(100);
    const deadline = Date.now() + 3000;
    while (running(orphan) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(running(orphan)).toBe(false);
  });

  it("starts the runtime with its Node flags, Node's compile cache in the data folder and, on Linux, glibc's mmap threshold", async () => {
    folder = mkdtempSync(join(tmpdir(), "svc-runtime-process-"));
    const seen = join(folder, "seen.json");
    const main = join(folder, "fake-runtime.mjs");
    writeFileSync(
      main,
      `import { renameSync, writeFileSync } from "node:fs";
      writeFileSync(${JSON.stringify(seen + ".tmp")}, JSON.stringify({ execArgv: process.execArgv, mmap: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, cache: process.env.NODE_COMPILE_CACHE ?? null }));
      renameSync(${JSON.stringify(seen + ".tmp")}, ${JSON.stringify(seen)});
      setInterval(() => {}, 1000);`,
    );
    const dataDir = join(folder, "Data");
    const child = RuntimeProcess.spawn({ main, dataDir, onStderr: () => {}, onNote: () => {} });
    const until = Date.now() + 5000;
    while (!existsSync(seen) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    process.kill(child.pid!, "SIGKILL");
    await child.stop(100);
    expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({
      execArgv: [],
      mmap: process.platform === "linux" ? "131072" : null,
      cache: join(dataDir, ".node-compile-cache"),
    });
  });
});
