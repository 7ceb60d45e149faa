// The app's launch, as the host sends it: spawn the runtime, `initialize`, then 30
// `extension.load`s at once, each followed by an `extension.run`. svc-runtime beside the worker
// design (bench/baseline/worker-runtime.mjs) doing the same work, interleaved in one run.
// Bundles: the `deploys` template (small) and the zod + date-fns fixture (~117 KB); launches:
// the first (no compiled code yet) and a later one (svc-runtime's code cache on disk); and a
// launch with two CPU-burning processes running beside it.
// Run: `node bench/launch.mjs` (after `npx tsc -b`). BENCH_QUICK=1: one round.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// The template as `svckit new` writes it (a file of the built CLI: svckit exports no templates).
import { deploys } from "../cli/dist/scaffold/templates/deploys.js";
import { bundleEntry } from "./lib/bundle-extension.mjs";
import { headline, saveResult } from "./lib/results.mjs";
import { RpcProcess } from "./lib/rpc-client.mjs";
import { runIfScript } from "./lib/script.mjs";
import { tempDir } from "./lib/temp.mjs";
import { fmt, median, printTable } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const ROUNDS = quick ? 1 : 3;
const COUNT = 30;
const SETTLE_MS = 5000; // RSS is read again this long after launch: it should stay flat
export const DESIGNS = {
  "svc-runtime": fileURLToPath(new URL("../runtime/dist/bundle/main.js", import.meta.url)),
  worker: fileURLToPath(new URL("./baseline/worker-runtime.mjs", import.meta.url)),
};

/** The two bundles, built once: the deploys template (as `svckit new` makes it) and the big fixture. */
export async function buildBundles() {
  const dir = tempDir("svc-bench-launch-src-");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "index.ts"), deploys.source);
  return {
    small: await bundleEntry(join(dir, "src", "index.ts")),
    big: await bundleEntry(fileURLToPath(new URL("./fixtures/launch-big/src/index.ts", import.meta.url))),
  };
}

/** A support folder with `count` extensions of `code` (each its own id and folder). */
export function makeWorld(code, count = COUNT) {
  const root = tempDir("svc-bench-launch-");
  const extensions = Array.from({ length: count }, (_, i) => {
    const id = `bench.launch${i + 1}`;
    const path = join(root, "Extensions", id);
    mkdirSync(join(path, "dist"), { recursive: true });
    writeFileSync(join(path, "dist", "index.js"), code);
    const manifest = {
      id,
      title: `Launch ${i + 1}`,
      version: "1.0.0",
      permissions: { network: [], files: [], exec: [] },
    };
    return { id, path, manifest };
  });
  return { dataDir: join(root, "Data"), extensions };
}

/** Resident memory of a process and its threads, bytes (Linux /proc; `ps` elsewhere). */
export async function rssOf(pid) {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, "utf8"))[1]) * 1024;
  const ps = spawn("ps", ["-o", "rss=", "-p", String(pid)]);
  let out = "";
  ps.stdout.on("data", (chunk) => (out += chunk));
  await new Promise((resolve) => ps.on("close", resolve));
  return Number(out.trim()) * 1024;
}

/**
 * One launch: spawn → initialize → every extension of `world` (load, then run) at once. Returns
 * when the last extension showed its first blip (ms after spawn), how many did, and RSS once all
 * ran (`rssAfter`) and `settleMs` later (`rss`). `beforeClose(rt)` may drive the runtime further.
 */
export async function launch(main, world, { settleMs = 1000, beforeClose, afterInitialize, args = [], env = {} } = {}) {
  const firstBlip = new Map();
  const failures = [];
  const spawned = performance.now();
  const rt = new RpcProcess(process.execPath, [...args, main], env);
  rt.on("blip.update", (params) => {
    if (!firstBlip.has(params.extensionId)) firstBlip.set(params.extensionId, performance.now() - spawned);
  });
  try {
    await rt.call("initialize", { protocolVersion: 1, dataDir: world.dataDir, locale: "en-GB", timeZone: "UTC" });
    const initialized = { ms: performance.now() - spawned, rss: afterInitialize ? await rssOf(rt.pid) : NaN };
    await Promise.all(
      world.extensions.map(({ id, path, manifest }) =>
        rt
          .call("extension.load", { id, path, manifest, preferences: {} })
          .then(() => rt.call("extension.run", { id, trigger: { type: "launch" } }))
          .catch((error) => failures.push(`${id}: ${error.message}`)),
      ),
    );
    const up = firstBlip.size;
    const lastMs = up === world.extensions.length ? Math.max(...firstBlip.values()) : NaN;
    const rssAfter = await rssOf(rt.pid);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const rss = await rssOf(rt.pid);
    const more = await beforeClose?.(rt);
    return { up, lastMs, rssAfter, rss, failures, initialized, ...more };
  } finally {
    await rt.close();
  }
}

/** Two processes burning a core each, for as long as `work` runs. */
async function withCpuBurners(work) {
  const burners = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    return await work();
  } finally {
    for (const burner of burners) burner.kill("SIGKILL");
  }
}

export function compiledFiles(world) {
  const dir = join(world.dataDir, ".compiled-code");
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".qjsc")).length : 0;
}

/**
 * Between the first and the later launch: the deploys template remembers deploys it ended (in
 * `ctx.storage`) and shows them no more, so each extension's storage is cleared (the worker
 * design keeps storage in memory only); the compiled code stays.
 */
export function forgetStorage(world) {
  for (const { id } of world.extensions) rmSync(join(world.dataDir, id, "storage.json"), { force: true });
}

/** svc-runtime compiles bundles for its cache while idle after a launch: the later launch is meant to find them all. */
export async function waitForCompiledCode(world, withinMs = 30_000) {
  const started = performance.now();
  while (compiledFiles(world) < world.extensions.length && performance.now() - started < withinMs)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return compiledFiles(world);
}

async function main() {
  console.log(`## launch: ${COUNT} extensions at once, svc-runtime vs the worker design\n`);
  const bundles = await buildBundles();
  console.log(
    `bundles: deploys template ${fmt(bundles.small.length / 1024)} KB, zod + date-fns ${fmt(bundles.big.length / 1024)} KB\n`,
  );
  const rows = [];
  const headlines = [];
  const details = {};
  for (const [size, code] of Object.entries(bundles)) {
    const samples = { "svc-runtime": { first: [], later: [] }, worker: { first: [], later: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? Object.keys(DESIGNS) : Object.keys(DESIGNS).reverse();
      for (const design of order) {
        const world = makeWorld(code); // a fresh support folder: the first launch has no compiled code
        samples[design].first.push(
          await launch(DESIGNS[design], world, {
            beforeClose: design === "svc-runtime" ? () => waitForCompiledCode(world) : undefined,
          }),
        );
        if (design === "svc-runtime" && compiledFiles(world) !== COUNT) {
          console.warn(`warning: ${compiledFiles(world)} of ${COUNT} compiled bundles on disk before the later launch`);
        }
        forgetStorage(world);
        // The later launch reads the code cache; its RSS is read again after SETTLE_MS (flat?).
        samples[design].later.push(await launch(DESIGNS[design], world, { settleMs: round === 0 ? SETTLE_MS : 1000 }));
      }
    }
    const loaded = await withCpuBurners(async () => ({
      "svc-runtime": await launch(DESIGNS["svc-runtime"], makeWorld(code)),
      worker: await launch(DESIGNS.worker, makeWorld(code)),
    }));

    for (const launchKind of ["first", "later"]) {
      const svc = samples["svc-runtime"][launchKind];
      const worker = samples.worker[launchKind];
      const allUp = [...svc, ...worker].every((r) => r.up === COUNT);
      const svcMs = median(svc.map((r) => r.lastMs));
      const workerMs = median(worker.map((r) => r.lastMs));
      const svcRss = median(svc.map((r) => r.rss));
      const workerRss = median(worker.map((r) => r.rss));
      rows.push({
        bundle: size,
        launch: launchKind,
        "svc up (each round)": svc.map((r) => r.up).join(" "),
        "worker up": worker.map((r) => r.up).join(" "),
        "30th first blip svc / worker (ms)": `${fmt(svcMs, 0)} / ${fmt(workerMs, 0)}`,
        ratio: fmt(svcMs / workerMs, 2),
        "RSS svc / worker (MB)": `${fmt(svcRss / 2 ** 20, 0)} / ${fmt(workerRss / 2 ** 20, 0)}`,
        "RSS ratio": fmt(svcRss / workerRss, 2),
      });
      const label = `${size} bundles, ${launchKind} launch`;
      headlines.push(
        headline(
          `all ${COUNT} up, svc-runtime, ${label} (rounds all up)`,
          svc.filter((r) => r.up === COUNT).length / svc.length,
          "×",
          { min: 1 },
        ),
      );
      headlines.push(headline(`30th first blip svc ÷ worker, ${label}`, svcMs / workerMs, "×", { max: 1 }));
      headlines.push(headline(`RSS after launch svc ÷ worker, ${label}`, svcRss / workerRss, "×", { max: 1 / 3 }));
      details[`${size}/${launchKind}`] = { svc, worker, allUp };
      for (const r of [...svc, ...worker])
        if (r.failures.length) console.warn(`${label}: ${r.failures.slice(0, 3).join("; ")}`);
    }
    const flat = { soon: samples["svc-runtime"].later[0].rssAfter, settled: samples["svc-runtime"].later[0].rss };
    const growth = flat.settled / flat.soon;
    headlines.push(
      headline(`svc-runtime RSS ${SETTLE_MS / 1000} s after launch ÷ just after, ${size} bundles`, growth, "×", {
        max: 1.1,
      }),
    );
    headlines.push(
      headline(
        `all ${COUNT} up beside two CPU burners, svc-runtime, ${size} bundles`,
        loaded["svc-runtime"].up / COUNT,
        "×",
        { min: 1 },
      ),
    );
    rows.push({
      bundle: size,
      launch: "first, 2 CPU burners",
      "svc up (each round)": String(loaded["svc-runtime"].up),
      "worker up": String(loaded.worker.up),
      "30th first blip svc / worker (ms)": `${fmt(loaded["svc-runtime"].lastMs, 0)} / ${fmt(loaded.worker.lastMs, 0)}`,
      ratio: fmt(loaded["svc-runtime"].lastMs / loaded.worker.lastMs, 2),
      "RSS svc / worker (MB)": `${fmt(loaded["svc-runtime"].rss / 2 ** 20, 0)} / ${fmt(loaded.worker.rss / 2 ** 20, 0)}`,
      "RSS ratio": fmt(loaded["svc-runtime"].rss / loaded.worker.rss, 2),
    });
    details[`${size}/flat`] = { soonMb: flat.soon / 2 ** 20, settledMb: flat.settled / 2 ** 20 };
    details[`${size}/burners`] = loaded;
  }
  printTable(`launch of ${COUNT} extensions (medians of ${ROUNDS}; time from spawn)`, rows);
  printTable(
    "targets",
    headlines.map((h) => ({ figure: h.figure, value: fmt(h.value, 2), verdict: h.pass ? "PASS" : "MISS" })),
  );
  const file = saveResult("launch", { headlines, rows, details });
  console.log(`\nresults: ${file}`);
}

runIfScript(import.meta.url, main);
