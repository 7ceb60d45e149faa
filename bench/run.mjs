// `npm run bench`: every benchmark in sequence, each in its own process, then one summary table
// of the headline figures with their targets. Each bench also runs alone (see bench/README.md).
// BENCH_QUICK=1 runs fewer rounds (a smoke test, not figures to quote).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readResult, saveResult } from "./lib/results.mjs";
import { fmt, printTable } from "./stats.mjs";

const BENCHES = [
  "sandbox-vs-worker",
  "runtime-throughput",
  "launch",
  "sandbox-levers",
  "http-push",
  "flood",
  "tools",
  "ui",
  "tools-ui",
  "compat",
];
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function ensureBuilt() {
  const build = spawnSync("npx", ["tsc", "-b"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) {
    console.error(
      "bench: `npx tsc -b` failed; the benches run the built packages (dist/). Fix the build, then run again.",
    );
    process.exit(1);
  }
}

function describeTarget(target) {
  if (!target) return "";
  if (target.max !== undefined) return `≤ ${target.max}`;
  if (target.below !== undefined) return `< ${target.below}`;
  return `≥ ${target.min}`;
}

ensureBuilt();
const failed = [];
for (const name of BENCHES) {
  console.log(`\n==> node bench/${name}.mjs`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))], {
    stdio: "inherit",
  });
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (run.status !== 0) failed.push(name);
}

const rows = [];
for (const name of BENCHES) {
  for (const h of readResult(name)?.headlines ?? []) {
    rows.push({
      bench: name,
      figure: h.figure,
      value: `${fmt(h.value, h.unit === "ms" || h.unit === "×" ? 2 : 1)} ${h.unit}`,
      target: describeTarget(h.target),
      verdict: h.pass === undefined ? "" : h.pass ? "PASS" : "MISS",
    });
  }
}
printTable("summary (medians unless stated)", rows);
saveResult("summary", { rows, failed });
if (failed.length) {
  console.error(`\nfailed: ${failed.join(", ")}`);
  process.exit(1);
}
