// Cold start to the first update() result, the same bundle in both designs.
// Sandbox: pool.create → load → invoke(update), on a warm pool (sandbox threads already started:
// the runtime's steady state). Four sandbox figures, from two levers:
// - spare: the pool keeps a spare instance (interpreter + prelude) on each sandbox thread, made
//   once the thread is idle; the sample starts once the spare is ready (waiting for it is
//   outside the timing): an extension started while the runtime is otherwise idle. "No spare"
//   uses a second pool with `spare: false`: every create makes its own instance, as in a burst
//   of creates (the app's launch) where spares run out at once.
// - compiled before: the pool's code cache holds this bundle's compiled form (a restart,
//   re-enabling, a preference change, every app launch after the first). "First load" gives
//   each sample a bundle never seen before (the same code with a unique trailing comment), so
//   QuickJS parses it: the first start after an install or an edit.
// Worker: new Worker → bundle evaluated → update result. Disposal is outside every timing.
import { setTimeout as sleep } from "node:timers/promises";
import { WorkerExtension } from "../baseline/worker-design.mjs";
import { UPDATE } from "../lib/sandbox-design.mjs";
import { interleave } from "../lib/trials.mjs";
import { summarize } from "../stats.mjs";

const PERMISSIONS = { network: [], files: [], exec: [] };

/** Resolves once every sandbox thread of `pool` has its spare ready (at most ~2 s). */
export async function spareReady(pool) {
  for (let i = 0; i < 200; i++) {
    if ((await pool.stats()).every((thread) => thread.spare)) return;
    await sleep(10);
  }
  throw new Error("the pool made no spare within 2 s");
}

/** One sandbox cold start, split into its phases (ms). */
async function sandboxColdStart(pool, code, dataDir, id = "bench.cold") {
  const t0 = performance.now();
  const handle = await pool.create(
    { id, code, permissions: PERMISSIONS, dataDir },
    { forwarded: { forward: async () => null } },
  );
  const t1 = performance.now();
  await handle.load();
  const t2 = performance.now();
  await handle.invoke(UPDATE);
  const t3 = performance.now();
  await handle.dispose();
  return { total: t3 - t0, create: t1 - t0, load: t2 - t1, update: t3 - t2 };
}

async function workerColdStart(code) {
  const t0 = performance.now();
  const extension = await WorkerExtension.start(code);
  await extension.update();
  const total = performance.now() - t0;
  await extension.dispose();
  return total;
}

/**
 * Interleaved cold starts of the designs; medians, p90s and each sandbox figure's phases.
 * `pool` keeps spares (the default); `noSparePool` was made with `spare: false`.
 *
 * @example const r = await coldStart({ pool, noSparePool }, code, dataDir, 30); r.ratio // sandbox ÷ worker
 */
export async function coldStart({ pool, noSparePool }, code, dataDir, rounds) {
  let fresh = 0;
  const firstLoad = () => `${code}\n// never compiled before: ${++fresh}`;
  const variants = {
    sandbox: { pool, code: () => code },
    firstLoad: { pool, code: firstLoad },
    noSpare: { pool: noSparePool, code: () => code },
    noSpareFirstLoad: { pool: noSparePool, code: firstLoad },
  };
  const phases = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const designs = Object.fromEntries(
    Object.entries(variants).map(([name, variant]) => [
      name,
      async () => {
        if (variant.pool === pool) await spareReady(pool);
        // One id per variant: like an extension, an id keeps one compiled form on disk.
        const p = await sandboxColdStart(variant.pool, variant.code(), dataDir, `bench.cold.${name}`);
        phases[name].push(p);
        return p.total;
      },
    ]),
  );
  const samples = await interleave({ ...designs, worker: () => workerColdStart(code) }, rounds);
  const worker = summarize(samples.worker);
  const phaseMedians = (list) => {
    const kept = list.slice(-rounds);
    const phase = (key) => summarize(kept.map((p) => p[key])).median;
    return { create: phase("create"), load: phase("load"), update: phase("update") };
  };
  const figures = Object.fromEntries(
    Object.keys(variants).map((name) => {
      const summary = summarize(samples[name]);
      return [name, { ...summary, ratio: summary.median / worker.median, phases: phaseMedians(phases[name]) }];
    }),
  );
  return { ...figures, worker, ratio: figures.sandbox.ratio };
}
