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
  await sleep(Number(process.env.PROBE_WAIT ?? 8000));
  let a = sampleTree(rt.pid); await sleep(5000); let b = sampleTree(rt.pid);
  const idle = between(a, b);
  console.log("idle 5s: cpu", idle.cpuMs.toFixed(1), "wakeups/s", idle.wakeupsPerSecond.toFixed(1), "rss", (b.rss/2**20).toFixed(1));
  for (const [n, t] of Object.entries(idle.byThread)) if (t.cpuMs > 0.05 || t.wakeups) console.log("  ", n.padEnd(18), t.cpuMs.toFixed(2), "ms", t.wakeups, "wakeups");
  const per = [];
  for (let k = 0; k < 5; k++) {
    a = sampleTree(rt.pid);
    await Promise.all(world.extensions.map(({ id }) => rt.call("extension.run", { id, trigger: { type: "interval" } })));
    await sleep(3000);
    b = sampleTree(rt.pid);
    const u = between(a, b); per.push(u);
    console.log("update round", k, "cpu/N", (u.cpuMs / N).toFixed(2), "wakeups", u.wakeups);
  }
  const u = per.at(-1);
  for (const [n, t] of Object.entries(u.byThread)) if (t.cpuMs > 0.05 || t.wakeups) console.log("  ", n.padEnd(18), t.cpuMs.toFixed(2), "ms", t.wakeups, "wakeups");
}});
process.exit(0);
