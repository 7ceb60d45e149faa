// Levers for the sandbox's cold start and memory, measured (no targets): what each would buy.
// Run: `node bench/sandbox-levers.mjs` (after `npx tsc -b`). Reads the pool's own figures
// (diagnostics, stats) and times a bare QuickJS instance phase by phase (sandbox/phases.mjs).
import { WorkerExtension } from "./baseline/worker-design.mjs";
import { buildFixture } from "./build-fixture.mjs";
import { headline, saveResult } from "./lib/results.mjs";
import { runIfScript } from "./lib/script.mjs";
import { UPDATE, startSandbox, warmPool } from "./lib/sandbox-design.mjs";
import { tempDir } from "./lib/temp.mjs";
import { interleave, timed } from "./lib/trials.mjs";
import { phaseTimer } from "./sandbox/phases.mjs";
import { fmt, median, printTable } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const MB = 1024 * 1024;
const PERMISSIONS = { network: [], files: [], exec: [] };
const dataDir = tempDir("svc-bench-levers-");

const create = (pool, code) =>
  pool.create(
    { id: "bench.lever", code, permissions: PERMISSIONS, dataDir },
    { forwarded: { forward: async () => null } },
  );

// The cold starts here are first loads: a trailing comment makes each sample's bundle new to the
// pool's code cache, so QuickJS parses it (sandbox-vs-worker.mjs measures the cached start).
let fresh = 0;
const neverCompiled = (code) => `${code}\n// sample ${++fresh}`;

/** Cold start with the instance and prelude made ahead (a spare the pool would keep ready). */
async function spareColdStart(pool, code) {
  const handle = await create(pool, neverCompiled(code));
  const ms = await timed(async () => {
    await handle.load();
    await handle.invoke(UPDATE);
  });
  await handle.dispose();
  return ms;
}

/** Cold start through the pool, disposal outside the timing (as in sandbox/cold-start.mjs). */
async function coldStartTimed(pool, code) {
  let handle;
  const ms = await timed(async () => {
    handle = await create(pool, neverCompiled(code));
    await handle.load();
    await handle.invoke(UPDATE);
  });
  await handle.dispose();
  return ms;
}

async function workerColdStart(code) {
  let extension;
  const ms = await timed(async () => {
    extension = await WorkerExtension.start(code);
    await extension.update();
  });
  await extension.dispose();
  return ms;
}

/**
 * Per sandbox: QuickJS heap, sandbox-thread JS heap, RSS (bytes), over `count` idle sandboxes added
 * to `alive` (kept until the end: a disposal in between would make the next deltas negative).
 */
async function memoryBreakdown(pool, code, count, alive) {
  const [before] = await pool.stats();
  const rssBefore = process.memoryUsage().rss;
  const handles = [];
  for (let i = 0; i < count; i++) {
    const handle = await startSandbox(pool, code);
    await handle.invoke(UPDATE);
    handles.push(handle);
  }
  const [after] = await pool.stats();
  const quickjsHeap = median(await Promise.all(handles.map(async (h) => (await h.diagnostics()).heapUsed)));
  const rss = (process.memoryUsage().rss - rssBefore) / count;
  alive.push(...handles);
  return { quickjsHeap, sandboxThreadHeap: (after.heapUsed - before.heapUsed) / count, rss };
}

async function main() {
  const forms = {
    unminified: buildFixture(),
    svckit: buildFixture("zod-datefns", { svckit: true }),
  };
  console.log("## sandbox levers\n");
  // No spare here: every design below pays for its own instance unless it says otherwise.
  const pool = await warmPool({ threads: 1, spare: false });

  const designs = {};
  for (const [form, code] of Object.entries(forms)) designs[`sandbox, ${form}`] = () => coldStartTimed(pool, code);
  designs["sandbox, unminified, spare instance + prelude made ahead"] = () => spareColdStart(pool, forms.unminified);
  designs["worker, unminified"] = () => workerColdStart(forms.unminified);
  designs["worker, svckit"] = () => workerColdStart(forms.svckit);
  const cold = await interleave(designs, quick ? 5 : 15);
  const workerMedian = median(cold["worker, unminified"]);
  const coldRows = Object.entries(cold).map(([design, samples]) => ({
    design,
    median: median(samples),
    ratio: median(samples) / workerMedian,
  }));
  printTable(
    "cold start to first update() by bundle form (ms, medians; ratio to the worker on the unminified bundle)",
    coldRows.map((r) => ({
      design: r.design,
      median: fmt(r.median),
      "÷ worker": fmt(r.ratio, 2),
    })),
  );
  console.log(
    `bundle sizes: ${Object.entries(forms)
      .map(([f, c]) => `${f} ${fmt(c.length / 1024)} KB`)
      .join(", ")}`,
  );

  const phases = await phaseTimer();
  const phaseRows = [];
  for (const [form, code] of Object.entries(forms)) {
    const samples = [];
    for (let i = 0; i < (quick ? 4 : 10) + 2; i++) samples.push(await phases(code));
    const kept = samples.slice(2);
    const row = { form };
    for (const key of Object.keys(kept[0])) row[key] = median(kept.map((s) => s[key]));
    phaseRows.push(row);
  }
  printTable(
    "a bare QuickJS cold start, phase by phase (ms, medians; parse = what the code cache saves on a later start)",
    phaseRows.map((r) => ({
      form: r.form,
      instance: fmt(r.instance),
      prelude: fmt(r.prelude),
      parse: fmt(r.parse),
      execute: fmt(r.execute),
      "first update": fmt(r.firstUpdate),
    })),
  );

  const count = quick ? 10 : 30;
  const alive = [];
  const memory = {
    "tiny bundle": await memoryBreakdown(pool, "module.exports = { update() { return 1; } };", count, alive),
    "fixture, svckit build": await memoryBreakdown(pool, forms.svckit, count, alive),
    fixture: await memoryBreakdown(pool, forms.unminified, count, alive),
  };
  await Promise.all(alive.map((h) => h.dispose()));
  printTable(
    `memory per idle sandbox, ${count} in one pool (MB; sandbox-thread heap includes uncollected garbage)`,
    Object.entries(memory).map(([bundle, m]) => ({
      bundle,
      "QuickJS heap": fmt(m.quickjsHeap / MB, 2),
      "sandbox-thread JS heap": fmt(m.sandboxThreadHeap / MB, 2),
      RSS: fmt(m.rss / MB, 2),
    })),
  );
  await pool.dispose();

  const byDesign = Object.fromEntries(coldRows.map((r) => [r.design, r]));
  const headlines = [
    headline(
      "lever: spare instance + prelude, cold start ÷ worker",
      byDesign["sandbox, unminified, spare instance + prelude made ahead"].ratio,
      "×",
    ),
    headline("lever: svckit build bundle (minified), cold start ÷ worker", byDesign["sandbox, svckit"].ratio, "×"),
    headline(
      "lever: parse share of a bare cold start (what the code cache saves)",
      phaseRows[0].parse /
        Object.values(phaseRows[0])
          .slice(1)
          .reduce((a, b) => a + b, 0),
      "×",
    ),
  ];
  const file = saveResult("sandbox-levers", {
    headlines,
    coldStart: coldRows,
    phases: phaseRows,
    memory,
    bundleBytes: Object.fromEntries(Object.entries(forms).map(([f, c]) => [f, c.length])),
  });
  console.log(`\nresults: ${file}`);
}

runIfScript(import.meta.url, main);
