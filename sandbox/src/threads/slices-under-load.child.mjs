// Child process of slices-under-load.test.ts (run pinned to one CPU beside two CPU burners).
// Lines on stdout are JSON; "go" on stdin starts the measured part once the burners run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { SandboxPool } from "../../dist/index.js";

const SLICE = Number(process.env.SLICE_MS);
const MARGIN = Number(process.env.MARGIN_MS);
const root = mkdtempSync(join(tmpdir(), "svc-slices-under-load-"));
let n = 0;
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const host = { forward: async () => null };

/** A sandbox whose update(ctx) runs `body`; its slices are timed against SLICE. */
async function sandboxIn(pool, body) {
  const id = `test.load${++n}`;
  const sandbox = await pool.create(
    {
      id,
      code: `module.exports = { async update(ctx) { ${body} } };`,
      permissions: { network: [], files: [], exec: [] },
      dataDir: join(root, id),
      limits: { sliceMs: SLICE },
    },
    { forwarded: host, onCrash: () => {} },
  );
  await sandbox.load();
  return sandbox;
}

const outcome = (promise) =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error) => ({ ok: false, code: error.code, message: error.message }),
  );
const update = (n) => ({ kind: "update", ctx: { preferences: { n } } });
// A fixed amount of guest work (no time read inside the loop), and the wall time it took.
const WORK = `const n = ctx.preferences.n; const t = Date.now(); let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) % 1000003; return { wallMs: Date.now() - t, x };`;

const pool = new SandboxPool({ threads: 1, watchdogMarginMs: MARGIN, spare: false });
const worker = await sandboxIn(pool, WORK);
// Calibrate on the thread's CPU clock: iterations for 60 % of the slice.
const probe = 500_000;
await worker.invoke(update(probe)); // the first run is slower: V8 tiers the interpreter's code up
const before = (await worker.diagnostics()).cpuMs;
await worker.invoke(update(probe));
const perIteration = ((await worker.diagnostics()).cpuMs - before) / probe;
const iterations = Math.round((SLICE * 0.6) / perIteration);
say({ calibrated: true, iterations });

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== "go") continue;
  const cpuBefore = (await worker.diagnostics()).cpuMs;
  const innocent = await outcome(worker.invoke(update(iterations)));
  const innocentCpuMs = (await worker.diagnostics()).cpuMs - cpuBefore;
  const looping = await sandboxIn(pool, `for (;;) {}`);
  const loop = await outcome(looping.invoke(update(0)));
  const afterLoop = await outcome(worker.invoke(update(1000)));
  // A native stall ends its whole thread: it gets a pool of its own.
  const stallPool = new SandboxPool({ threads: 1, watchdogMarginMs: MARGIN, spare: false });
  const stalling = await sandboxIn(stallPool, `return (new Array(1e9) + "").length;`);
  const stall = await outcome(stalling.invoke(update(0)));
  say({ innocent, innocentCpuMs, loop, afterLoop, stall });
  await stallPool.dispose();
  await pool.dispose();
  process.exit(0);
}
