// The curve (issue 28): svc-runtime against SPEC.md's worker design (bench/baseline/) at N = 1,
// 5, 10, 30, 100, 300 extensions, in the same run. For each N and design:
//   - launch to the last first blip, `deploys` template (small) and the 117 KB fixture, first
//     launch and a later one (svc-runtime's compiled code on disk), rounds interleaved;
//   - a steady session: N `fixtures/scale` extensions, each `update()` emitting one blip, run
//     every --period s after the launch; RSS of the whole process tree --settle s after launch,
//     CPU per update() (every thread of the tree, per period ÷ N), then --idle s with nothing
//     scheduled: wake-ups per second (voluntary context switches of every thread);
// and once, at 30 extensions: validated blips/s with all 30 bursting at once and p99 `ctx.emit`
// (the guest's clock, in the blip) → the line on the runtime's stdout.
// Prints each N's ratios (medians), the linear fits, and draws bench/scale.svg (vega-lite).
//
// Run: `node bench/scale.mjs` (after `npx tsc -b`; ~25 min). Quick: `--n 1,5,10 --settle 20`.
// svc-runtime starts as svc-host starts it (runtime/src/launch-options.ts); `--plain` without
// those flags. Levers alone, each a design of the same run: `--variant "name;--flag;KEY=value"`
// (svc-runtime started with exactly those); another build: `--also before=/path/to/dist/main.js`.
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "../runtime/dist/launch-options.js";
import { renderChart } from "./lib/chart.mjs";
import { bundleEntry } from "./lib/bundle-extension.mjs";
import { between, sampleTree } from "./lib/proc-tree.mjs";
import { saveResult } from "./lib/results.mjs";
import { runIfScript } from "./lib/script.mjs";
import { buildBundles, DESIGNS, forgetStorage, launch, makeWorld, waitForCompiledCode } from "./launch.mjs";
import { fmt, median, printTable, quantile } from "./stats.mjs";

const { values: flags } = parseArgs({
  options: {
    n: { type: "string", default: "1,5,10,30,100,300" },
    settle: { type: "string", default: "60" }, // s after launch: the RSS reading
    period: { type: "string", default: "10" }, // s between two update() of an extension
    idle: { type: "string", default: "10" }, // s with nothing scheduled, for idle wake-ups
    rounds: { type: "string", default: "3" }, // launches per bundle, N and design
    "big-up-to": { type: "string", default: "100" }, // the 117 KB bundle's launches up to this N
    burst: { type: "string", default: "1000" }, // blips per extension in the throughput burst
    "svc-args": { type: "string", multiple: true, default: [] },
    "svc-env": { type: "string", multiple: true, default: [] },
    also: { type: "string", multiple: true, default: [] }, // name=main.js: another svc build
    variant: { type: "string", multiple: true, default: [] }, // "name;--flag --flag;KEY=V KEY=V": svc-runtime so started
    plain: { type: "boolean", default: false }, // svc-runtime without RUNTIME_NODE_FLAGS / runtimeEnvironment
    skip: { type: "string", default: "" }, // launch,steady,throughput
    name: { type: "string", default: "scale" }, // results/<name>.json
    with: { type: "string" }, // an earlier run's results/scale.json: its other N join the table, fits and chart
    chart: { type: "string", default: fileURLToPath(new URL("./scale.svg", import.meta.url)) },
  },
});
// `--n none --with results.json`: no new measurement, the earlier run's tables, fits and chart again.
const NS = flags.n === "none" ? [] : flags.n.split(",").map(Number);
const SETTLE_S = Number(flags.settle);
const PERIOD_S = Number(flags.period);
const IDLE_S = Number(flags.idle);
const ROUNDS = Number(flags.rounds);
const SKIP = new Set(flags.skip.split(",").filter(Boolean));
const pairs = (list) => Object.fromEntries(list.filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
// svc-runtime is started as svc-host starts it (runtime/src/launch-options.ts) unless --plain.
const SVC_ARGS = [...(flags.plain ? [] : RUNTIME_NODE_FLAGS), ...flags["svc-args"]];
const SVC_ENV = { ...(flags.plain ? {} : runtimeEnvironment({})), ...pairs(flags["svc-env"]) };
/** Node's compile cache in the world's data folder, as svc-host sets it (`--plain`: none). */
const svcEnvFor = (world) => ({
  ...(flags.plain ? {} : runtimeEnvironment({}, process.platform, world.dataDir)),
  ...SVC_ENV,
});

/** The designs of this run: svc-runtime, the worker design, any `--also` build and `--variant`. */
const designs = {
  "svc-runtime": { main: DESIGNS["svc-runtime"], args: SVC_ARGS, env: svcEnvFor },
  worker: { main: DESIGNS.worker, args: [], env: {} },
  // Another build, started plain (as an svc-host before launch-options.ts started it).
  ...Object.fromEntries(
    flags.also.map((spec) => {
      const [name, main] = spec.split(/=(.*)/s);
      return [name, { main, args: [], env: {} }];
    }),
  ),
  ...Object.fromEntries(
    flags.variant.map((spec) => {
      const [name, args = "", env = ""] = spec.split(";");
      return [
        name,
        { main: DESIGNS["svc-runtime"], args: args.split(" ").filter(Boolean), env: pairs(env.split(" ")) },
      ];
    }),
  ),
};
const NAMES = Object.keys(designs);
/** A design's environment for one world (svc-runtime's depends on the world's data folder). */
const envOf = (name, world) => (typeof designs[name].env === "function" ? designs[name].env(world) : designs[name].env);
const isSvc = (name) => name !== "worker";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const mb = (bytes) => bytes / 2 ** 20;
const load = () => loadavg()[0].toFixed(1);

/** Rounds of every design, alternating which goes first. */
async function interleaved(rounds, run) {
  const samples = Object.fromEntries(NAMES.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? NAMES : [...NAMES].reverse();
    for (const name of order) samples[name].push(await run(name));
  }
  return samples;
}

/** First launch and later launch (compiled code on disk for svc) of `count` copies of `code`. */
async function launches(name, code, count) {
  const { main, args } = designs[name];
  const world = makeWorld(code, count);
  const env = envOf(name, world);
  const first = await launch(main, world, {
    settleMs: 0,
    args,
    env,
    beforeClose: isSvc(name) ? () => void waitForCompiledCode(world, 60_000 + count * 500) : undefined,
  });
  forgetStorage(world);
  const later = await launch(main, world, { settleMs: 0, args, env });
  for (const r of [first, later]) if (r.failures.length) console.warn(`${name}: ${r.failures.slice(0, 3).join("; ")}`);
  return { first: first.lastMs, later: later.lastMs, up: Math.min(first.up, later.up) };
}

/**
 * The steady session: launch `count` tick extensions, run each one's update() every PERIOD_S,
 * read the tree at each tick, RSS at SETTLE_S, then IDLE_S with nothing scheduled.
 */
async function steady(name, code, count) {
  const { main, args } = designs[name];
  const world = makeWorld(code, count);
  const env = envOf(name, world);
  const result = await launch(main, world, {
    settleMs: 0,
    args,
    env,
    beforeClose: async (rt) => {
      const launched = performance.now();
      let ticks = 0;
      rt.on("blip.update", () => ticks++);
      const runAll = () =>
        Promise.all(world.extensions.map(({ id }) => rt.call("extension.run", { id, trigger: { type: "interval" } })));
      const periods = [];
      let previous;
      for (let at = PERIOD_S; at <= SETTLE_S; at += PERIOD_S) {
        await sleep(launched + at * 1000 - performance.now());
        const reading = sampleTree(rt.pid);
        if (previous) periods.push({ ...between(previous, reading), updates: ticks });
        if (at === SETTLE_S) {
          previous = reading;
          break;
        }
        ticks = 0;
        await runAll();
        previous = reading;
      }
      const settled = previous ?? sampleTree(rt.pid);
      await sleep(IDLE_S * 1000);
      const idle = between(settled, sampleTree(rt.pid));
      const cpuPerUpdate = periods.map((p) => p.cpuMs / count);
      const missing = periods.filter((p) => p.updates !== count).length;
      if (missing) console.warn(`${name} N=${count}: ${missing} periods without every blip`);
      return {
        rssSettled: settled.rss,
        cpuPerUpdateMs: median(cpuPerUpdate),
        // Every period's CPU ÷ every update: the collections that follow a burst now and then included.
        cpuPerUpdateAllMs: periods.reduce((sum, p) => sum + p.cpuMs, 0) / (count * periods.length),
        cpuPerUpdateSamples: cpuPerUpdate,
        wakeupsPerSecondUpdating: median(periods.map((p) => p.wakeupsPerSecond)),
        idleWakeupsPerSecond: idle.wakeupsPerSecond,
        idleCpuMsPerSecond: idle.cpuMs / idle.seconds,
        periodByThread: periods.at(-1)?.byThread,
      };
    },
  });
  return { ...result, load: load() };
}

/** 30 extensions bursting at once: validated blips/s and emit → stdout latency. */
async function throughput(name, code, count, burst) {
  const { main, args } = designs[name];
  const world = makeWorld(code, count);
  const env = envOf(name, world);
  return launch(main, world, {
    settleMs: 0,
    args,
    env,
    beforeClose: async (rt) => {
      const latencies = [];
      rt.on("blip.update", (params) => {
        const sent = Number(params.payload.title);
        if (Number.isFinite(sent)) latencies.push(performance.timeOrigin + performance.now() - sent);
      });
      const before = sampleTree(rt.pid);
      const started = performance.now();
      await Promise.all(
        world.extensions.map(({ id }) =>
          rt.call("extension.action", { id, blipId: `${id}/b0`, actionId: "burst", input: { n: burst, window: 16 } }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = between(before, sampleTree(rt.pid));
      if (latencies.length !== count * burst) console.warn(`${name}: ${latencies.length} of ${count * burst} blips`);
      return {
        blipsPerSecond: latencies.length / seconds,
        p50Ms: quantile(latencies, 0.5),
        p99Ms: quantile(latencies, 0.99),
        cpuUsPerBlip: (cpu.cpuMs * 1000) / latencies.length,
      };
    },
  });
}

/** Least squares y = a + b·N. */
function fit(points) {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const b = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return { a: my - b * mx, b };
}

async function main() {
  console.log(`## scale: ${NAMES.join(" vs ")} at N = ${NS.join(", ")} (load ${load()})\n`);
  const bundles = await buildBundles();
  const tick = await bundleEntry(fileURLToPath(new URL("./fixtures/scale/src/index.ts", import.meta.url)));
  // Rows of an earlier run (same designs) for the N this run does not measure, marked as such.
  const earlier = flags.with ? JSON.parse(readFileSync(flags.with, "utf8")).perN : [];
  const perN = earlier.filter((row) => !NS.includes(row.n)).map((row) => ({ ...row, earlier: flags.with }));
  for (const row of perN) printRow(row);
  for (const count of NS) {
    const row = { n: count, load: [load()] };
    if (!SKIP.has("launch")) {
      for (const [size, code] of Object.entries(bundles)) {
        if (size === "big" && count > Number(flags["big-up-to"])) continue;
        const samples = await interleaved(ROUNDS, (name) => launches(name, code, count));
        row[size] = Object.fromEntries(
          NAMES.map((name) => [
            name,
            {
              first: median(samples[name].map((s) => s.first)),
              later: median(samples[name].map((s) => s.later)),
              allUp: samples[name].every((s) => s.up === count),
            },
          ]),
        );
      }
    }
    if (!SKIP.has("steady")) {
      row.steady = {};
      const order = perN.length % 2 === 0 ? NAMES : [...NAMES].reverse();
      for (const name of order) row.steady[name] = await steady(name, tick, count);
    }
    row.load.push(load());
    perN.push(row);
    perN.sort((a, b) => a.n - b.n);
    printRow(row);
    // A long run leaves its figures and chart so far after every N.
    saveResult(flags.name, { flags, perN });
    writeFileSync(flags.chart, await renderChart(chartRows(perN), chartNote(perN)));
  }
  if (NS.length === 0) writeFileSync(flags.chart, await renderChart(chartRows(perN), chartNote(perN)));
  let work = flags.with && NS.length === 0 ? JSON.parse(readFileSync(flags.with, "utf8")).work : undefined;
  if (!SKIP.has("throughput") && NS.length > 0) {
    const samples = await interleaved(ROUNDS, (name) => throughput(name, tick, 30, Number(flags.burst)));
    work = Object.fromEntries(
      NAMES.map((name) => [
        name,
        Object.fromEntries(
          ["blipsPerSecond", "p50Ms", "p99Ms", "cpuUsPerBlip"].map((k) => [k, median(samples[name].map((s) => s[k]))]),
        ),
      ]),
    );
    printTable(
      `work: 30 extensions, ${flags.burst} blips each at once (medians of ${ROUNDS}; load ${load()})`,
      NAMES.map((name) => ({
        design: name,
        "blips/s": fmt(work[name].blipsPerSecond, 0),
        "emit → stdout p50 / p99 ms": `${fmt(work[name].p50Ms, 1)} / ${fmt(work[name].p99Ms, 1)}`,
        "CPU µs per blip": fmt(work[name].cpuUsPerBlip, 0),
        "blips/s ÷ worker": fmt(work[name].blipsPerSecond / work.worker.blipsPerSecond, 2),
        "p99 ÷ worker": fmt(work[name].p99Ms / work.worker.p99Ms, 2),
      })),
    );
  }
  const fits = printFits(perN);
  console.log(`\nchart: ${flags.chart}`);
  const file = saveResult(flags.name, { flags, perN, work, fits });
  console.log(`results: ${file}`);
}

const ratio = (row, pick, name = "svc-runtime") => pick(row, name) / pick(row, "worker");

/** "a / b" of two figures of a design, or "—" when the row has no such measurement. */
function pair(present, first, second, decimals) {
  return present ? `${fmt(first, decimals)} / ${fmt(second, decimals)}` : "—";
}

function printRow(row) {
  const lines = [];
  for (const name of NAMES) {
    const s = row.steady?.[name];
    const over = (pick) => ratio(row, pick, name); // this design ÷ the worker design
    const launchOf = (size) =>
      row[size] && [
        pair(true, row[size][name].first, row[size][name].later, 0),
        pair(
          true,
          over((r, d) => r[size][d].first),
          over((r, d) => r[size][d].later),
          2,
        ),
      ];
    const [small = "—", smallRatio = "—"] = launchOf("small") || [];
    const [big = "—", bigRatio = "—"] = launchOf("big") || [];
    lines.push({
      N: row.n,
      design: name,
      "RSS MB": s ? fmt(mb(s.rssSettled), 0) : "—",
      "RSS ÷ worker": s
        ? fmt(
            over((r, d) => r.steady[d].rssSettled),
            2,
          )
        : "—",
      "launch small first / later ms": small,
      "÷ worker": smallRatio,
      "launch 117 KB first / later ms": big,
      "÷ worker ": bigRatio,
      "CPU ms per update() median / all": pair(s, s?.cpuPerUpdateMs, s?.cpuPerUpdateAllMs, 2),
      "÷ worker  ": pair(
        s,
        s && over((r, d) => r.steady[d].cpuPerUpdateMs),
        s && over((r, d) => r.steady[d].cpuPerUpdateAllMs),
        2,
      ),
      "idle wake-ups/s": s ? fmt(s.idleWakeupsPerSecond, 1) : "—",
    });
  }
  printTable(`N = ${row.n} (load ${row.load.join(" → ")}${row.earlier ? `; from ${row.earlier}` : ""})`, lines);
}

function printFits(perN) {
  const fits = {};
  const rows = [];
  const measures = {
    "RSS MB": (row, name) => row.steady && mb(row.steady[name].rssSettled),
    "launch ms (small, first)": (row, name) => row.small?.[name].first,
  };
  for (const [measure, pick] of Object.entries(measures)) {
    for (const name of NAMES) {
      const points = perN.map((row) => [row.n, pick(row, name)]).filter(([, y]) => Number.isFinite(y));
      if (points.length < 2) continue;
      const { a, b } = fit(points);
      fits[`${measure}/${name}`] = { a, b };
      rows.push({ measure, design: name, fit: `${fmt(a, 1)} + ${fmt(b, 2)} per extension` });
    }
  }
  printTable("linear fits over N", rows);
  return fits;
}

/** Under the chart: when, and the load the figures were taken at. */
function chartNote(perN) {
  const loads = perN.flatMap((row) => row.load.map(Number));
  return `${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs, load average ${Math.min(...loads)}–${Math.max(...loads)}; N on a log scale, RSS and launch too`;
}

function chartRows(perN) {
  const rows = [];
  for (const row of perN)
    for (const name of NAMES) {
      if (row.steady)
        rows.push({
          n: row.n,
          design: name,
          measure: `RSS ${SETTLE_S} s after launch (MB)`,
          value: mb(row.steady[name].rssSettled),
        });
      if (row.small)
        rows.push({
          n: row.n,
          design: name,
          measure: "launch to the last first blip (ms)",
          value: row.small[name].first,
        });
    }
  return rows;
}

runIfScript(import.meta.url, main);
