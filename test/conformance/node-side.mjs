/**
 * The Node side of the conformance runner: started as a child process (so `TZ` can be the
 * guests' zone), it runs each bundle in a fresh worker thread (a realm of its own, as each
 * sandbox is) exactly as the compatibility corpus runs bundles on Node, and prints every
 * update()'s value as one JSON array. Input: a JSON file of `{ codes: string[], timeoutMs }`.
 */
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

const { codes, timeoutMs } = JSON.parse(readFileSync(process.argv[2], "utf8"));

// An error thrown by a timer callback is logged by the sandbox, never fatal: the same here.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
process.on("uncaughtException", () => {});
process.on("unhandledRejection", () => {});
const refuse = (specifier) => { throw new Error('module "' + specifier + '" is not available in the extension sandbox'); };
const module = { exports: {} };
Promise.resolve()
  .then(() => {
    new Function("module", "exports", "require", workerData)(module, module.exports, refuse);
    const extension = module.exports.default ?? module.exports;
    return extension.update();
  })
  .then(
    (value) => parentPort.postMessage({ ok: true, value: JSON.parse(JSON.stringify(value ?? null)) }),
    (error) => parentPort.postMessage({ ok: false, error: String(error) }),
  );
`;

function runOne(code) {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { eval: true, workerData: code });
    const timer = setTimeout(() => finish({ ok: false, error: `no answer in ${timeoutMs} ms` }), timeoutMs);
    function finish(outcome) {
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    }
    worker.once("message", finish);
    worker.once("error", (error) => finish({ ok: false, error: String(error) }));
  });
}

const results = new Array(codes.length);
let next = 0;
async function lane() {
  while (next < codes.length) {
    const index = next++;
    results[index] = await runOne(codes[index]);
  }
}
await Promise.all([lane(), lane()]);
process.stdout.write(JSON.stringify(results));
