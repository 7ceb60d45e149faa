// Cold start to the first update() result, the same bundle in both designs.
// Sandbox: pool.create → load → invoke(update), on a warm pool (host threads already started:
// the runtime's steady state). Two sandbox figures:
// - "sandbox": the pool keeps a spare instance (interpreter + prelude) on each host thread,
//   made once the thread is idle; the sample starts once the spare is ready (waiting for it is
//   outside the timing). This is an extension started while the runtime is otherwise idle:
//   enabling or installing one, a hot reload, a crash restart.
// - "sandbox, no spare": a second pool with `spare: false`, i.e. every create makes its own
//   instance, as in a burst of creates (the app's launch) where spares run out at once.
// Worker: new Worker → bundle evaluated → update result. Disposal is outside every timing.
import { setTimeout as sleep } from "node:timers/promises";
import { WorkerExtension } from "../baseline/worker-design.mjs";
import { UPDATE } from "../lib/sandbox-design.mjs";
import { interleave } from "../lib/trials.mjs";
import { summarize } from "../stats.mjs";

const PERMISSIONS = { network: [], files: [], exec: [] };

/** Resolves once every host thread of `pool` has its spare ready (at most ~2 s). */
export async function spareReady(pool) {
  for (let i = 0; i < 200; i++) {
    if ((await pool.stats()).every((thread) => thread.spare)) return;
    await sleep(10);
  }
  throw new Error("the pool made no spare within 2 s");
}

/** One sandbox cold start, split into its phases (ms). */
async function sandboxColdStart(pool, code, dataDir) {
  const t0 = performance.now();
  const handle = await pool.create({ id: "bench.cold", code, permissions: PERMISSIONS, dataDir }, { host: { forward: async () => null } });
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
  const phases = { sandbox: [], noSpare: [] };
  const samples = await interleave(
    {
      sandbox: async () => {
        await spareReady(pool);
        const p = await sandboxColdStart(pool, code, dataDir);
        phases.sandbox.push(p);
        return p.total;
      },
      noSpare: async () => {
        const p = await sandboxColdStart(noSparePool, code, dataDir);
        phases.noSpare.push(p);
        return p.total;
      },
      worker: () => workerColdStart(code),
    },
    rounds,
  );
  const sandbox = summarize(samples.sandbox);
  const noSpare = summarize(samples.noSpare);
  const worker = summarize(samples.worker);
  const phaseMedians = (list) => {
    const kept = list.slice(-rounds);
    const phase = (key) => summarize(kept.map((p) => p[key])).median;
    return { create: phase("create"), load: phase("load"), update: phase("update") };
  };
  return {
    sandbox,
    noSpare,
    worker,
    ratio: sandbox.median / worker.median,
    noSpareRatio: noSpare.median / worker.median,
    sandboxPhases: phaseMedians(phases.sandbox),
    noSparePhases: phaseMedians(phases.noSpare),
  };
}
