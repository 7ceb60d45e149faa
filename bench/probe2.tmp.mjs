import { fileURLToPath } from "node:url";
import { bundleEntry } from "./lib/bundle-extension.mjs";
import { between, sampleTree } from "./lib/proc-tree.mjs";
import { DESIGNS, launch, makeWorld } from "./launch.mjs";
const N = Number(process.argv[2] ?? 1);
const main = process.argv[3] ?? DESIGNS["svc-runtime"];
const args = process.argv.slice(4);
const tick = await bundleEntry(fileURLToPath(new URL("./fixtures/scale/src/index.ts", import.meta.url)));
const world = makeWorld(tick, N);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await launch(main, world, { settleMs: 0, args, env: JSON.parse(process.env.PROBE_ENV ?? "{}"), beforeClose: async (rt) => {
  let a = sampleTree(rt.pid);
  for (let s = 0; s < Number(process.env.SECS ?? 25); s++) {
    if (process.env.RUN_AT && s % Number(process.env.RUN_AT) === 0) await Promise.all(world.extensions.map(({ id }) => rt.call("extension.run", { id, trigger: { type: "interval" } })));
    await sleep(1000);
    const b = sampleTree(rt.pid); const d = between(a, b); a = b;
    console.log(`t+${s+1}s cpu ${d.cpuMs.toFixed(1)} wake ${d.wakeups} rss ${(b.rss/2**20).toFixed(1)} :: ` + Object.entries(d.byThread).filter(([,t]) => t.cpuMs > 0.5).map(([n,t]) => `${n.split(" ")[1]}=${t.cpuMs.toFixed(1)}/${t.wakeups}`).join(" "));
  }
}});
process.exit(0);
