// SPEC.md's original design, as the baseline our QuickJS sandbox is measured against: one Node
// worker thread per extension, heap capped with `maxOldGenerationSizeMb: 64`, the bundle
// evaluated as CommonJS with Node's own modules refused (baseline/extension-thread.mjs).
// Its face mirrors @svc/sandbox's SandboxHandle (`invoke`, host calls through `host.forward`),
// so a benchmark drives both designs with the same code.
import { Worker } from "node:worker_threads";

const THREAD_FILE = new URL("./extension-thread.mjs", import.meta.url);

/**
 * One extension in its own worker thread.
 *
 * @example
 * const ext = await WorkerExtension.start(code, { host: { forward: async () => null } });
 * await ext.update();
 * await ext.dispose();
 */
export class WorkerExtension {
  /** Starts the worker and evaluates the bundle; resolves once loaded. */
  static async start(code, { id = "bench.worker", host = { forward: async () => null } } = {}) {
    const worker = new Worker(THREAD_FILE, {
      workerData: { id, code },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    const extension = new WorkerExtension(worker, host);
    extension.tools = await extension.#loaded;
    return extension;
  }

  /** Tool name → the raw spec the bundle exported. */
  tools = {};
  #worker;
  #host;
  #loaded;
  #requests = new Map();
  #nextRequestId = 1;

  constructor(worker, host) {
    this.#worker = worker;
    this.#host = host;
    this.#loaded = new Promise((resolve, reject) => {
      worker.on("message", (message) => (message.type === "loaded" ? resolve(message.tools) : this.#receive(message)));
      worker.once("error", (error) => {
        reject(error);
        for (const waiter of this.#requests.values()) waiter.reject(error);
      });
    });
  }

  /** Calls an entry point (`update`, `onAction`, `onEvent`, `tool.run`) and resolves with its result. */
  invoke(invocation) {
    const rid = this.#nextRequestId++;
    return new Promise((resolve, reject) => {
      this.#requests.set(rid, { resolve, reject });
      this.#worker.postMessage({ type: "invoke", rid, invocation });
    });
  }

  /** Runs update() and resolves with its result. */
  update() {
    return this.invoke({ kind: "update", ctx: { preferences: {} } });
  }

  /** Asks the worker to collect its garbage (when Node runs with --expose-gc). */
  collectGarbage() {
    this.#worker.postMessage({ type: "gc" });
  }

  dispose() {
    return this.#worker.terminate();
  }

  #receive(message) {
    if (message.type === "result") {
      const waiter = this.#requests.get(message.rid);
      this.#requests.delete(message.rid);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(new Error(message.error));
    } else if (message.type === "forward") {
      const answer = (reply) => this.#worker.postMessage({ type: "forwarded", fid: message.fid, ...reply });
      Promise.resolve()
        .then(() => this.#host.forward(message.op, message.args))
        .then(
          (value) => answer({ ok: true, value: value ?? null }),
          (error) => answer({ ok: false, error: String(error?.message ?? error) }),
        );
    }
  }
}
