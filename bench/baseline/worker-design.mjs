// SPEC.md's original design, as the baseline our QuickJS sandbox is measured against: one Node
// worker thread per extension, heap capped with `maxOldGenerationSizeMb: 64`, the bundle
// evaluated as CommonJS with Node's own modules refused.
import { Worker } from "node:worker_threads";

const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const module = { exports: {} };
const refuse = (name) => { throw new Error("module \\"" + name + "\\" is not available"); };
new Function("module", "exports", "require", workerData.code)(module, module.exports, refuse);
const extension = module.exports.default ?? module.exports;
parentPort.on("message", async (msg) => {
  if (msg === "update") parentPort.postMessage(await extension.update({}));
});
parentPort.postMessage("loaded");
`;

/** One extension in its own worker thread. */
export class WorkerExtension {
  /** Starts the worker, evaluates the bundle; resolves once loaded. */
  static async start(code) {
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { code },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    const extension = new WorkerExtension(worker);
    await extension.#next();
    return extension;
  }

  #worker;
  constructor(worker) {
    this.#worker = worker;
  }

  #next() {
    return new Promise((resolve, reject) => {
      this.#worker.once("message", resolve);
      this.#worker.once("error", reject);
    });
  }

  /** Runs update() and resolves with its result. */
  update() {
    const answer = this.#next();
    this.#worker.postMessage("update");
    return answer;
  }

  dispose() {
    return this.#worker.terminate();
  }
}
