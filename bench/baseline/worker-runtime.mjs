// A small worker-thread runtime: the baseline for bench/runtime-throughput.mjs. It speaks the
// same NDJSON JSON-RPC on stdin/stdout as svc-runtime for the methods the bench uses
// (initialize, extension.load, extension.run, extension.action, tool.run, shutdown), runs each extension in a
// Node worker thread (baseline/worker-design.mjs), validates every payload on the main thread
// with the SDK's processing and writes the same notification lines.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { decodeToolSpec, normalizeToolValues, processBlipInput, processToolResult } from "@svc/api";
import { SeqFile } from "./seq-file.mjs";
import { WorkerExtension } from "./worker-design.mjs";

let dataDir = "";
const extensions = new Map();

const write = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const notify = (method, params) => write({ method, params });

/** The main-thread side of one extension's `ctx`: blips are validated, stamped and sent here. */
function hostFor(id, seqs, emitted) {
  return {
    async forward(op, args) {
      if (op === "log") return void notify("log", { extensionId: id, level: args.level, message: args.message });
      if (op !== "emit") return null;
      const key = typeof args?.blip?.key === "string" ? args.blip.key : "?";
      // Validated with the seq it will carry, as svc-runtime does.
      const processed = processBlipInput(args.blip, { extensionId: id, seq: seqs.peek(`${id}/${key}`) });
      if (!processed.ok)
        return void notify("log", {
          extensionId: id,
          level: "error",
          message: `dropped blip ${id}/${key}: ${processed.error}`,
        });
      const seq = await seqs.next(processed.payload.id);
      notify("blip.update", { extensionId: id, payload: { ...processed.payload, seq } });
      emitted.current?.set(processed.payload.id, seq);
      return null;
    },
  };
}

const methods = {
  initialize(params) {
    dataDir = params.dataDir;
    return { protocolVersion: 1, runtimeVersion: "baseline", nodeVersion: process.version };
  },
  async "extension.load"({ id, path }) {
    const code = await readFile(join(path, "dist", "index.js"), "utf8");
    const emitted = { current: undefined };
    const worker = await WorkerExtension.start(code, {
      id,
      host: hostFor(id, new SeqFile(join(dataDir, id)), emitted),
    });
    const tools = new Map();
    for (const raw of Object.values(worker.tools)) {
      const decoded = decodeToolSpec(raw);
      if (decoded.ok) tools.set(decoded.spec.id, decoded.spec);
    }
    extensions.set(id, { worker, tools, emitted });
    notify("extension.tools", { extensionId: id, tools: [...tools.values()] });
    notify("extension.status", { extensionId: id, status: "loaded" });
    return {};
  },
  async "extension.run"({ id, trigger }) {
    const extension = extensions.get(id);
    notify("extension.status", { extensionId: id, status: "running" });
    const result = await extension.worker.invoke({ kind: "update", ctx: { preferences: {}, trigger } });
    notify("extension.status", { extensionId: id, status: "idle" });
    const next = result?.nextRunAfter;
    return typeof next === "number" ? { nextRunAfter: next } : {};
  },
  async "extension.action"({ id, blipId, actionId, input, itemId }) {
    const extension = extensions.get(id);
    const emitted = (extension.emitted.current = new Map());
    notify("extension.status", { extensionId: id, status: "running" });
    const key = blipId.slice(id.length + 1);
    await extension.worker.invoke({
      kind: "onAction",
      ctx: { preferences: {} },
      action: { blipId, key, actionId, input, itemId },
    });
    extension.emitted.current = undefined;
    notify("extension.status", { extensionId: id, status: "idle" });
    return { emitted: Object.fromEntries(emitted) };
  },
  async "tool.run"({ id, tool, action, values }) {
    const extension = extensions.get(id);
    const spec = extension.tools.get(tool);
    const blocks = await extension.worker.invoke({
      kind: "tool.run",
      ctx: { preferences: {} },
      tool,
      action,
      values: normalizeToolValues(spec, values),
    });
    const processed = processToolResult(blocks, spec.title);
    if (!processed.ok) throw new Error(processed.error);
    return { blocks: processed.blocks };
  },
  async shutdown() {
    await Promise.all([...extensions.values()].map((extension) => extension.worker.dispose()));
    setImmediate(() => process.exit(0));
    return {};
  },
};

createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  if (!line.trim()) return;
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return; // answers to our own requests: none are sent
  Promise.resolve()
    .then(() => methods[method](params))
    .then(
      (result) => write({ id, result }),
      (error) => write({ id, error: { code: -32603, message: String(error?.message ?? error) } }),
    );
});
