/**
 * What the host calls in the guest: `init` (once), `load` (evaluates the bundle's function),
 * `invoke` (one entry point; the outcome comes back through op `invoke.done`), `dispatch`
 * (host pushes: timers, aborts, WebSocket events) and `reply` (the answers to async calls).
 */
import { bridge, dispatch, encodeJson, reply } from "./bridge.ts";
import { restartClock } from "./clock.ts";
import type { Invocation } from "../src/invocation.ts";
import { contextFactory, type SandboxConfig } from "./ctx.ts";
import { describeThrown } from "./errors.ts";
import { AbortController, type AbortSignal } from "./events.ts";
import { makeRequire } from "./modules.ts";

const parse = JSON.parse;
let config: SandboxConfig = { id: "", dataDir: "" };
/** Made on the first call after `init` (its closures are made once per sandbox, not per call). */
let newContext: ReturnType<typeof contextFactory> | undefined;
let extension: Record<string, any> | undefined;
const running = new Map<number, AbortController>();

bridge.on("abort", (data: { callId: number }) => running.get(data.callId)?.abort());

function jsonCopy(value: unknown): unknown {
  try {
    return parse(encodeJson(value, "a tool"));
  } catch {
    return undefined;
  }
}

function describeLoad(ext: Record<string, any> | undefined) {
  const tools: Record<string, unknown> = {};
  const declared = ext?.tools;
  if (declared && typeof declared === "object") {
    for (const name of Object.keys(declared)) tools[name] = jsonCopy(declared[name]) ?? null;
  }
  return {
    tools,
    hasUpdate: typeof ext?.update === "function",
    hasOnEvent: typeof ext?.onEvent === "function",
    hasOnAction: typeof ext?.onAction === "function",
  };
}

function findTool(name: string, method: "run" | "drop") {
  const tool = extension?.tools?.[name];
  if (!tool || typeof tool !== "object") throw new Error(`the extension has no tool named "${name}"`);
  if (typeof tool[method] !== "function") throw new Error(`tool "${name}" has no ${method}() function`);
  return tool;
}

/** A tool's `ctx.signal`, aborted by the host's `abort` push; other kinds have none, so make none. */
function toolSignal(callId: number): AbortSignal {
  const controller = new AbortController();
  running.set(callId, controller);
  return controller.signal;
}

async function call(callId: number, invocation: Invocation): Promise<unknown> {
  if (!extension) throw new Error("the extension is not loaded");
  newContext ??= contextFactory(bridge, config);
  const ctx = newContext(invocation.ctx);
  switch (invocation.kind) {
    case "update":
      return typeof extension.update === "function" ? extension.update(ctx) : undefined;
    case "onEvent":
      return typeof extension.onEvent === "function" ? extension.onEvent(ctx, invocation.event) : undefined;
    case "onAction":
      return typeof extension.onAction === "function" ? extension.onAction(ctx, invocation.action) : undefined;
    case "tool.run":
      return findTool(invocation.tool, "run").run(invocation.action, invocation.values, {
        ...ctx,
        signal: toolSignal(callId),
      });
    case "tool.drop":
      return findTool(invocation.tool, "drop").drop(invocation.action, invocation.files, {
        ...ctx,
        signal: toolSignal(callId),
      });
    default:
      throw new Error(`unknown invocation kind "${(invocation as { kind: string }).kind}"`);
  }
}

function report(callId: number, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): void {
  try {
    if (outcome.ok) bridge.callSync("invoke.done", { callId, ok: true, value: outcome.value });
    else bridge.callSync("invoke.done", { callId, ok: false, error: describeThrown(outcome.error) });
  } catch (error) {
    const { message } = describeThrown(error);
    bridge.callSync("invoke.done", {
      callId,
      ok: false,
      error: { name: "Error", message: `the result cannot be returned: ${message}` },
    });
  }
}

export const entry = {
  init(json: string): void {
    config = parse(json);
    newContext = undefined;
    restartClock();
  },
  load(bundle: (module: unknown, exports: unknown, require: unknown) => void): string {
    try {
      const module = { exports: {} as Record<string, any> };
      bundle.call(module.exports, module, module.exports, makeRequire(bridge));
      const exported = module.exports;
      extension = (exported && (exported.default ?? exported)) as Record<string, any> | undefined;
      return encodeJson({ ok: true, value: describeLoad(extension) }, "the load result");
    } catch (error) {
      return encodeJson({ ok: false, error: describeThrown(error) }, "the load result");
    }
  },
  invoke(json: string): void {
    const { callId, invocation } = parse(json) as { callId: number; invocation: Invocation };
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(call(callId, invocation));
    } catch (error) {
      result = Promise.reject(error);
    }
    result
      .then(
        (value) => report(callId, { ok: true, value }),
        (error) => report(callId, { ok: false, error }),
      )
      .finally(() => running.delete(callId));
  },
  dispatch,
  reply,
};
