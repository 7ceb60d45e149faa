// One launch lever alone, by wall time and by CPU: svc-runtime started as svc-host starts it,
// against the same runtime with one thing changed, interleaved round by round. Each round: a
// first launch (fresh support folder) and a later one (compiled code and Node's compile cache on
// disk). CPU is the runtime's, every thread (`/proc/<pid>/stat`), from spawn to the last first
// blip: on a loaded machine it moves far less than the wall time.
// Run: `node bench/launch-cpu.mjs` (the compile cache on and off; Linux only; after `npx tsc -b`).
//   --n 1 --rounds 8 --bundle small|big
//   --variant "name;KEY=V KEY=V;nocache"   env added to the runtime's; "nocache": no compile cache
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "../runtime/dist/launch-options.js";
import { DESIGNS, buildBundles, forgetStorage, launch, makeWorld, waitForCompiledCode } from "./launch.mjs";
import { fmt, median, printTable } from "./stats.mjs";

const { values: flags } = parseArgs({
  options: {
    n: { type: "string", default: "1" },
    rounds: { type: "string", default: "8" },
    bundle: { type: "string", default: "small" },
    variant: { type: "string", multiple: true, default: ["nocache;;nocache"] },
  },
});
const CLOCK_TICKS_PER_S = 100; // USER_HZ, the unit of utime and stime

/** CPU ms of a process, every thread (utime + stime). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

const variants = {
  "as svc-host starts it": { env: {}, cache: true },
  ...Object.fromEntries(
    flags.variant.map((spec) => {
      const [name, env = "", options = ""] = spec.split(";");
      const pairs = env
        .split(" ")
        .filter(Boolean)
        .map((pair) => pair.split(/=(.*)/s).slice(0, 2));
      return [name, { env: Object.fromEntries(pairs), cache: !options.includes("nocache") }];
    }),
  ),
};
const names = Object.keys(variants);
const count = Number(flags.n);
const code = (await buildBundles())[flags.bundle];
const samples = Object.fromEntries(names.map((name) => [name, { first: [], later: [] }]));

for (let round = 0; round < Number(flags.rounds); round++) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const { env: extra, cache } = variants[name];
    const world = makeWorld(code, count);
    const env = { ...runtimeEnvironment({}, process.platform, cache ? world.dataDir : undefined), ...extra };
    const options = { args: RUNTIME_NODE_FLAGS, env, settleMs: 0 };
    let cpu;
    const first = await launch(DESIGNS["svc-runtime"], world, {
      ...options,
      beforeClose: async (rt) => {
        cpu = cpuMs(rt.pid);
        await waitForCompiledCode(world);
      },
    });
    samples[name].first.push({ ms: first.lastMs, cpu });
    forgetStorage(world);
    const later = await launch(DESIGNS["svc-runtime"], world, {
      ...options,
      beforeClose: (rt) => void (cpu = cpuMs(rt.pid)),
    });
    samples[name].later.push({ ms: later.lastMs, cpu });
  }
}

const base = samples[names[0]];
printTable(
  `one lever alone: N = ${count}, ${flags.bundle} bundle, ${flags.rounds} interleaved rounds (${process.version})`,
  names.flatMap((name) =>
    ["first", "later"].map((kind) => {
      const ms = median(samples[name][kind].map((s) => s.ms));
      const cpu = median(samples[name][kind].map((s) => s.cpu));
      return {
        runtime: name,
        launch: kind,
        "last first blip ms": fmt(ms, 0),
        "÷ first row": fmt(ms / median(base[kind].map((s) => s.ms)), 2),
        "CPU ms": fmt(cpu, 0),
        "CPU ÷ first row": fmt(cpu / median(base[kind].map((s) => s.cpu)), 2),
      };
    }),
  ),
);
