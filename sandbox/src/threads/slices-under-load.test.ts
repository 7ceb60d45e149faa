/**
 * Slices are timed by the thread's CPU time: on a machine whose cores are busy with other work,
 * an extension that waits for a core is not "stuck". The sandboxes run in a child process
 * pinned to one CPU with two CPU-burning processes pinned beside it, so the sandbox thread gets
 * about a third of that CPU and every slice takes about three times its CPU time in wall time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const SLICE = 300;
const MARGIN = 100;
const CHILD = fileURLToPath(new URL("./slices-under-load.child.mjs", import.meta.url));
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** `node args` pinned to CPU 0 (Linux's taskset, from util-linux). */
function onCpu0(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn("taskset", ["-c", "0", process.execPath, ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  started.push(child);
  return child;
}

it("with two CPU burners beside it, an innocent slice longer in wall time than its limit runs to the end; a runaway loop and a native stall are still stopped", async () => {
  const child = onCpu0([CHILD], { SLICE_MS: String(SLICE), MARGIN_MS: String(MARGIN) });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  expect(await next()).toMatchObject({ calibrated: true });
  onCpu0(["-e", "for (;;) {}"]);
  onCpu0(["-e", "for (;;) {}"]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.stdin!.write("go\n");
  const result = await next();

  // The innocent slice: ~60 % of its limit in CPU time, yet past limit + margin in wall time
  // (what the wall clock would have called stuck), and it finished.
  expect(result.innocent).toMatchObject({ ok: true });
  expect(result.innocent.value.wallMs).toBeGreaterThan(SLICE + MARGIN);
  expect(result.innocentCpuMs).toBeLessThan(SLICE);
  // A real runaway is interrupted at its CPU limit, and the sandbox next to it keeps working.
  expect(result.loop).toEqual({
    ok: false,
    code: "interrupted",
    message: `interrupted: the extension's code ran for more than ${SLICE} ms without pausing`,
  });
  expect(result.afterLoop).toMatchObject({ ok: true });
  // A native stall is still ended by the watchdog.
  expect(result.stall).toEqual({
    ok: false,
    code: "crashed",
    message: `the sandbox crashed: interrupted: slice over ${SLICE} ms inside a native call`,
  });
}, 60_000);
