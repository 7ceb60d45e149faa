// Guest CPU speed: fixtures/bridge/workload.js timed inside a sandbox (QuickJS, interpreted)
// and directly in this Node thread (V8, JIT), interleaved. The sandbox gets a long slice limit:
// the workload is one synchronous slice.
import { guestBundle, nodeWorkload } from "../fixtures/bridge/index.mjs";
import { startSandbox } from "../lib/sandbox-design.mjs";
import { interleave } from "../lib/trials.mjs";
import { summarize } from "../stats.mjs";

/**
 * @example const r = await cpuSlowdown(pool, { rounds: 10, scale: 2 }); r.slowdown // e.g. 40
 */
export async function cpuSlowdown(pool, { rounds, scale }) {
  const sandbox = await startSandbox(pool, guestBundle, { limits: { sliceMs: 30_000 } });
  const samples = await interleave(
    {
      sandbox: async () => {
        const { ms } = await sandbox.invoke({
          kind: "onAction",
          ctx: { preferences: {} },
          action: { mode: "cpu", scale },
        });
        return ms;
      },
      node: () => {
        const start = performance.now();
        nodeWorkload(scale);
        return performance.now() - start;
      },
    },
    rounds,
    { warmup: 2 },
  );
  await sandbox.dispose();
  const s = summarize(samples.sandbox);
  const n = summarize(samples.node);
  return { sandboxMs: s, nodeMs: n, slowdown: s.median / n.median };
}
