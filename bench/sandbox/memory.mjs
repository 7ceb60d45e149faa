// Memory per idle extension at 1, 10 and 100 extensions, each configuration in a fresh child
// process (sandbox/memory-child.mjs), so no run inherits another's heap.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./memory-child.mjs", import.meta.url));

async function measure(design, count) {
  const { stdout } = await run(process.execPath, ["--expose-gc", CHILD, design, String(count)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split("\n").pop());
}

/**
 * For each count, one fresh process per design (sandbox first, then worker); bytes per extension.
 *
 * @example const rows = await memoryPerExtension([1, 10, 100]);
 */
export async function memoryPerExtension(counts) {
  const rows = [];
  for (const count of counts) {
    const sandbox = await measure("sandbox", count);
    const worker = await measure("worker", count);
    rows.push({ count, sandbox: sandbox.perExtension, worker: worker.perExtension, ratio: sandbox.perExtension / worker.perExtension, raw: { sandbox, worker } });
  }
  return rows;
}
