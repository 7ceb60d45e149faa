// Cold start to the first update() result, the same bundle in both designs.
// Sandbox: pool.create → load → invoke(update), on a warm pool (host threads already started:
// the runtime's steady state). Worker: new Worker → bundle evaluated → update result.
// Disposal is outside the timing.
import { WorkerExtension } from "../baseline/worker-design.mjs";
import { UPDATE } from "../lib/sandbox-design.mjs";
import { interleave } from "../lib/trials.mjs";
import { summarize } from "../stats.mjs";

const PERMISSIONS = { network: [], files: [], exec: [] };

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
 * Interleaved cold starts of both designs; medians, p90s and the sandbox's phases.
 *
 * @example const r = await coldStart(pool, code, dataDir, 30); r.ratio // sandbox ÷ worker
 */
export async function coldStart(pool, code, dataDir, rounds) {
  const phases = [];
  const samples = await interleave(
    {
      sandbox: async () => {
        const p = await sandboxColdStart(pool, code, dataDir);
        phases.push(p);
        return p.total;
      },
      worker: () => workerColdStart(code),
    },
    rounds,
  );
  const sandbox = summarize(samples.sandbox);
  const worker = summarize(samples.worker);
  const kept = phases.slice(-rounds);
  const phase = (key) => summarize(kept.map((p) => p[key])).median;
  return {
    sandbox,
    worker,
    ratio: sandbox.median / worker.median,
    sandboxPhases: { create: phase("create"), load: phase("load"), update: phase("update") },
  };
}
