// The CPU of one `update()` at N = 1 once the code is warm (issue 28's energy target): one
// extension emitting one blip per update, run --warm times and then --runs times, --gap s apart,
// by svc-runtime (as svc-host starts it) and by the worker design, rounds interleaved. Each
// measured update is the whole tree's CPU from the request to the next one (every thread's
// schedstat), so the work each update leaves behind (collections, tier-up) counts. Prints the
// medians per design, the protocol thread's share and the ratio; Linux only.
// Run: `node bench/update-cpu.mjs` (after `npx tsc -b`; ~4 min a round). Quick: `--rounds 1 --warm 5 --runs 10`.
import { parseArgs } from "node:util";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "../runtime/dist/launch-options.js";
import { DESIGNS, launch, makeWorld } from "./launch.mjs";
import { between, sampleTree } from "./lib/proc-tree.mjs";
import { saveResult } from "./lib/results.mjs";
import { runIfScript } from "./lib/script.mjs";
import { fmt, median, printTable } from "./stats.mjs";

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" }, // odd, so the median is a round's own ratio
    warm: { type: "string", default: "40" }, // updates before the measured ones
    runs: { type: "string", default: "20" }, // measured updates
    gap: { type: "string", default: "1.5" }, // s from one update's answer to the next request
    settle: { type: "string", default: "20" }, // s after launch before the first update
  },
});
const ROUNDS = Number(flags.rounds);
const WARM = Number(flags.warm);
const RUNS = Number(flags.runs);
const GAP_MS = Number(flags.gap) * 1000;
const SETTLE_MS = Number(flags.settle) * 1000;

const CODE = `module.exports = { async update(ctx) { await ctx.emit({ key: "k", title: "T", layout: "stat", data: { value: Date.now() % 1000 } }); } };`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One launch of `name`: the measured updates' CPU, ms each (the whole tree and the main thread). */
async function measure(name) {
  const world = makeWorld(CODE, 1);
  const svc = name === "svc-runtime";
  const { id } = world.extensions[0];
  const updates = [];
  await launch(DESIGNS[name], world, {
    settleMs: 0,
    args: svc ? RUNTIME_NODE_FLAGS : [],
    env: svc ? runtimeEnvironment({}, process.platform, world.dataDir) : {},
    beforeClose: async (rt) => {
      const update = () => rt.call("extension.run", { id, trigger: { type: "interval" } });
      await sleep(SETTLE_MS);
      for (let i = 0; i < WARM; i++) await update().then(() => sleep(GAP_MS));
      for (let i = 0; i < RUNS; i++) {
        const before = sampleTree(rt.pid);
        await update().then(() => sleep(GAP_MS));
        const spent = between(before, sampleTree(rt.pid));
        updates.push({ cpuMs: spent.cpuMs, mainMs: spent.byThread[`node ${rt.pid}`]?.cpuMs ?? NaN });
      }
    },
  });
  return { cpuMs: median(updates.map((u) => u.cpuMs)), mainMs: median(updates.map((u) => u.mainMs)) };
}

async function main() {
  const names = ["svc-runtime", "worker"];
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    const results = {};
    for (const name of order) results[name] = await measure(name);
    rounds.push(results);
  }
  printTable(
    `CPU of one update() at N = 1 after ${WARM} updates, ${RUNS} measured ${flags.gap} s apart (medians)`,
    rounds.map((r, i) => ({
      round: i + 1,
      "svc ms (protocol thread)": `${fmt(r["svc-runtime"].cpuMs, 2)} (${fmt(r["svc-runtime"].mainMs, 2)})`,
      "worker ms (main thread)": `${fmt(r.worker.cpuMs, 2)} (${fmt(r.worker.mainMs, 2)})`,
      "svc ÷ worker": fmt(r["svc-runtime"].cpuMs / r.worker.cpuMs, 2),
    })),
  );
  const ratios = rounds.map((r) => r["svc-runtime"].cpuMs / r.worker.cpuMs);
  const ratio = median(ratios);
  console.log(`\nsvc ÷ worker: median ${fmt(ratio, 2)} of ${ratios.map((x) => fmt(x, 2)).join(", ")} (target ≤ 1.5)`);
  console.log(`results: ${saveResult("update-cpu", { warm: WARM, runs: RUNS, gapS: GAP_MS / 1000, rounds, ratio })}`);
}

runIfScript(import.meta.url, main);
