// Inside one baseline worker thread (SPEC.md's original design): evaluates the extension bundle
// as CommonJS with Node's own modules refused, and answers the owner's invocations. Every `ctx`
// member that reaches the host is a message to the owner thread, answered by its listener —
// the same path a forwarded op takes in the sandbox design.
import { parentPort, workerData } from "node:worker_threads";

const port = parentPort;
const pending = new Map();
let nextForwardId = 1;

function forward(op, args) {
  const fid = nextForwardId++;
  return new Promise((resolve, reject) => {
    pending.set(fid, { resolve, reject });
    port.postMessage({ type: "forward", fid, op, args });
  });
}

const refuse = (name) => {
  throw new Error(`module "${name}" is not available to extensions`);
};

function loadBundle(code) {
  const module = { exports: {} };
  new Function("module", "exports", "require", code)(module, module.exports, refuse);
  return module.exports.default ?? module.exports;
}

const storage = new Map();

/** The subset of SPEC.md's `ctx` the benchmarks touch, each member one forwarded op. */
function makeContext(call) {
  const done = (promise) => promise.then(() => undefined);
  const log =
    (level) =>
    (...args) =>
      void forward("log", { level, message: args.map(String).join(" ") });
  return {
    extensionId: workerData.id,
    trigger: call?.trigger,
    preferences: call?.preferences ?? {},
    storage: {
      get: async (key) => storage.get(key) ?? null,
      set: async (key, value) => void storage.set(key, value),
      delete: async (key) => void storage.delete(key),
    },
    emit: (blip) => done(forward("emit", { blip })),
    end: (key, options = {}) => done(forward("end", { key, ...options })),
    remove: (key) => done(forward("remove", { key })),
    notify: (title, body) => done(forward("notify", { title, body })),
    secrets: {
      get: (name) => forward("secrets.get", { name }),
      set: (name, value) => done(forward("secrets.set", { name, value })),
      delete: (name) => done(forward("secrets.delete", { name })),
    },
    log: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
  };
}

function run(extension, invocation) {
  const ctx = makeContext(invocation.ctx);
  switch (invocation.kind) {
    case "update":
      return extension.update?.(ctx);
    case "onAction":
      return extension.onAction?.(ctx, invocation.action);
    case "onEvent":
      return extension.onEvent?.(ctx, invocation.event);
    case "tool.run":
      return extension.tools[invocation.tool].run(invocation.action, invocation.values, {
        ...ctx,
        signal: new AbortController().signal,
      });
    default:
      throw new Error(`unknown invocation kind "${invocation.kind}"`);
  }
}

const extension = loadBundle(workerData.code);
const tools = Object.fromEntries(
  Object.entries(extension.tools ?? {}).map(([name, spec]) => [name, JSON.parse(JSON.stringify(spec))]),
);

port.on("message", (message) => {
  // The memory bench collects garbage in every thread before it reads RSS (needs --expose-gc).
  if (message.type === "gc") return void globalThis.gc?.();
  if (message.type === "forwarded") {
    const waiter = pending.get(message.fid);
    pending.delete(message.fid);
    if (message.ok) waiter?.resolve(message.value);
    else waiter?.reject(new Error(message.error));
    return;
  }
  if (message.type === "invoke") {
    Promise.resolve()
      .then(() => run(extension, message.invocation))
      .then(
        (value) => port.postMessage({ type: "result", rid: message.rid, ok: true, value: value ?? null }),
        (error) =>
          port.postMessage({ type: "result", rid: message.rid, ok: false, error: String(error?.message ?? error) }),
      );
  }
});
port.postMessage({ type: "loaded", tools });
