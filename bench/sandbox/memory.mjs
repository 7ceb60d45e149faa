// Memory per idle extension at 1, 10 and 100 extensions, each configuration in a fresh child
// process (sandbox/memory-child.mjs), so no run inherits another's heap.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { median } from "../stats.mjs";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./memory-child.mjs", import.meta.url));

async function measure(design, count) {
  const { stdout } = await run(process.execPath, ["--expose-gc", CHILD, design, String(count)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split("\n").pop());
}

/** Fresh processes per design for a count: a few page faults swing one extension's RSS by a MB. */
const repeatsFor = (count) => (count === 1 ? 5 : count <= 10 ? 3 : 1);

/**
 * For each count, fresh processes per design (sandbox and worker alternating); the median bytes
 * per extension over the repeats.
 *
 * @example const rows = await memoryPerExtension([1, 10, 100]);
 */
export async function memoryPerExtension(counts) {
  const rows = [];
  for (const count of counts) {
    const raw = { sandbox: [], worker: [] };
    for (let i = 0; i < repeatsFor(count); i++) {
      raw.sandbox.push(await measure("sandbox", count));
      raw.worker.push(await measure("worker", count));
    }
    const sandbox = median(raw.sandbox.map((r) => r.perExtension));
    const worker = median(raw.worker.map((r) => r.perExtension));
    rows.push({ count, repeats: raw.sandbox.length, sandbox, worker, ratio: sandbox / worker, raw });
  }
  return rows;
}
