// The bridge's cost, in µs per crossing, beside the worker design doing the same crossings
// (postMessage to its owner thread). Both load fixtures/bridge/guest.js and are driven through
// onAction; each listener answers at once, so what is timed is the crossing itself.
// The host call is also measured with both designs' threads pinned the same way (one CPU, then two):
// unpinned, the kernel's placement of each pair is luck that lasts (lib/placement.mjs), and the
// control row shows two identical worker designs told apart by it alone.
// Alone (a few seconds; BENCH_QUICK=1: fewer rounds): `node bench/sandbox/bridge.mjs` after `npx tsc -b`.
import { WorkerExtension } from "../baseline/worker-design.mjs";
import { guestBundle } from "../fixtures/bridge/index.mjs";
import { blipOfSize } from "../lib/payloads.mjs";
import { runIfScript } from "../lib/script.mjs";
import { startSandbox, warmPool } from "../lib/sandbox-design.mjs";
import { placementControl } from "../lib/placement.mjs";
import { interleave, timed } from "../lib/trials.mjs";
import { fmt, printTable, summarize } from "../stats.mjs";

const onAction = (action) => ({ kind: "onAction", ctx: { preferences: {} }, action });

/** What each listener saw, to prove the payloads really crossed. */
function countingHost() {
  const seen = { calls: 0, emitted: 0, emittedChars: 0 };
  return {
    seen,
    host: {
      forward: async (op, args) => {
        seen.calls++;
        if (op === "emit") {
          seen.emitted++;
          seen.emittedChars = JSON.stringify(args.blip).length;
        }
        return op === "secrets.get" ? "v" : null;
      },
    },
  };
}

/** µs per operation: one invoke doing `n` of them, or `n` invokes. */
const perOp = async (n, fn) => ((await timed(fn)) * 1000) / n;

/**
 * @example const r = await bridgeCost(pool, { rounds: 12, n: 300 });
 */
export async function bridgeCost(pool, { rounds, n }) {
  const sandboxSide = countingHost();
  const workerSide = countingHost();
  const sandbox = await startSandbox(pool, guestBundle, { forwarded: sandboxSide.host });
  const worker = await WorkerExtension.start(guestBundle, { host: workerSide.host });
  const blip = blipOfSize(4096);
  const data = "d".repeat(4096);
  const designs = { sandbox, worker };
  const measure = (op) =>
    interleave(Object.fromEntries(Object.entries(designs).map(([name, ext]) => [name, () => op(ext)])), rounds);
  const rows = {
    "host call (forwarded secrets.get, awaited)": await measure((ext) =>
      perOp(n, () => ext.invoke(onAction({ mode: "calls", n }))),
    ),
    "guest → listener: 4 KB ctx.emit, awaited": await measure((ext) =>
      perOp(n, () => ext.invoke(onAction({ mode: "emits", n, blip }))),
    ),
    "host → guest: invoke with a 4 KB action": await measure((ext) =>
      perOp(n / 10, async () => {
        for (let i = 0; i < n / 10; i++) await ext.invoke(onAction({ mode: "echo", data }));
      }),
    ),
    "host → guest: invoke with a tiny action": await measure((ext) =>
      perOp(n / 10, async () => {
        for (let i = 0; i < n / 10; i++) await ext.invoke(onAction({ mode: "echo" }));
      }),
    ),
  };
  // The first row again, now that every design has made thousands of crossings (their paths
  // compiled by V8's optimizing tier): a long-running runtime's steady state, beside the first
  // row's cold start of the bridge.
  rows["host call again, after the rows above (JIT-warm)"] = await measure((ext) =>
    perOp(n, () => ext.invoke(onAction({ mode: "calls", n }))),
  );
  const calls = (ext) => perOp(n, () => ext.invoke(onAction({ mode: "calls", n })));
  Object.assign(rows, await pinnedHostCalls(designs, calls, measure));
  const storage = (
    await interleave({ sandbox: () => perOp(n, () => sandbox.invoke(onAction({ mode: "storage", n }))) }, rounds)
  ).sandbox;
  // Control: a second worker design beside the first, interleaved and unpinned like the rows above.
  const twin = await WorkerExtension.start(guestBundle, { host: countingHost().host });
  const control = await interleave({ worker: () => calls(worker), twin: () => calls(twin) }, rounds);
  await twin.dispose();
  await sandbox.dispose();
  await worker.dispose();
  const table = Object.entries(rows).map(([what, samples]) => {
    const s = summarize(samples.sandbox).median;
    const w = summarize(samples.worker).median;
    return { what, sandboxUs: s, workerUs: w, ratio: s / w };
  });
  return {
    table,
    controlUs: [summarize(control.worker).median, summarize(control.twin).median],
    sandboxStorageGetUs: summarize(storage).median,
    emittedChars: { sandbox: sandboxSide.seen.emittedChars, worker: workerSide.seen.emittedChars },
  };
}

/** Host-call rows with every design's thread and the main thread pinned alike; none where pinning is not possible. */
async function pinnedHostCalls(designs, calls, measure) {
  const placement = placementControl();
  if (!placement) return {};
  const threads = [];
  for (const ext of Object.values(designs)) threads.push(await placement.busiestThreadDuring(() => calls(ext)));
  const [first, second] = placement.cpus;
  try {
    placement.pin([process.pid, ...threads], first);
    const oneCpu = await measure(calls);
    placement.pin(threads, second);
    const twoCpus = await measure(calls);
    return { [PINNED_ONE]: oneCpu, [PINNED_TWO]: twoCpus };
  } finally {
    placement.restore();
  }
}

export const PINNED_ONE = "host call, main + design threads pinned to one CPU";
export const PINNED_TWO = "host call, main on one CPU, design threads on another";

/** Issue 17's target: a forwarded host call costs at most twice the worker design's. */
const HOST_CALL_MAX_RATIO = 2;

const pinned = (what) => what === PINNED_ONE || what === PINNED_TWO;

async function main() {
  const pool = await warmPool();
  const result = await bridgeCost(pool, { rounds: process.env.BENCH_QUICK === "1" ? 4 : 12, n: 300 });
  await pool.dispose();
  printTable(
    "bridge cost (µs per crossing, medians; listener answers at once)",
    result.table.map((r) => ({
      crossing: r.what,
      sandbox: fmt(r.sandboxUs),
      worker: fmt(r.workerUs),
      ratio: fmt(r.ratio, 2),
      target: r.what.startsWith("host call")
        ? `≤ ${HOST_CALL_MAX_RATIO}: ${r.ratio <= HOST_CALL_MAX_RATIO ? "PASS" : "MISS"}${pinned(r.what) ? "" : " (unpinned)"}`
        : "",
    })),
  );
  const [worker, twin] = result.controlUs;
  console.log(
    `control, two identical worker designs interleaved unpinned: ${fmt(worker)} and ${fmt(twin)} µs per host call (${fmt(Math.max(worker, twin) / Math.min(worker, twin), 2)}×): unpinned rows measure placement luck too`,
  );
  console.log(`sandbox ctx.storage.get (no owner hop): ${fmt(result.sandboxStorageGetUs)} µs`);
}

runIfScript(import.meta.url, main);
