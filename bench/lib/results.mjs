// Where every bench leaves its figures: bench/results/<name>.json (gitignored), written
// atomically so run.mjs never reads half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/**
 * One headline figure, with its target when it has one.
 *
 * @example headline("cold start ratio", 0.42, "×", { max: 0.5 })
 */
export function headline(figure, value, unit, target) {
  const pass =
    target === undefined
      ? undefined
      : (target.max === undefined || value <= target.max) &&
        (target.min === undefined || value >= target.min) &&
        (target.below === undefined || value < target.below);
  return { figure, value, unit, ...(target ? { target } : {}), ...(pass === undefined ? {} : { pass }) };
}

/** The machine the figures came from: they mean little without it. */
export function machine() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadavg: loadavg(),
  };
}

/**
 * Writes bench/results/<name>.json and returns its path.
 *
 * @example saveResult("sandbox-vs-worker", { headlines, details })
 */
export function saveResult(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${name}.json`;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(
    temp,
    JSON.stringify({ bench: name, at: new Date().toISOString(), machine: machine(), ...data }, null, 2) + "\n",
  );
  renameSync(temp, file);
  return file;
}

/** Reads a bench's last results, or undefined when it has none. */
export function readResult(name) {
  try {
    return JSON.parse(readFileSync(`${RESULTS_DIR}${name}.json`, "utf8"));
  } catch {
    return undefined;
  }
}
