/**
 * The part of a sandbox that does not depend on the extension: a QuickJS instance with the
 * bridge's two Node functions installed and the prelude evaluated, its entry points captured.
 * A sandbox thread keeps one ready (a *spare*) so that creating a sandbox is only binding it.
 * Until bound, every bridge call fails; the prelude makes none. No guest code has run in it:
 * `init` (on bind) gives the prelude the extension's id and data folder and restarts the
 * guest's `performance.now()` clock, so a spare reads exactly like a fresh instance.
 */
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { HostBridge } from "./guest-calls.js";
import { createInstance, type QuickJSInstance } from "./instance.js";
import { DEFAULT_LIMITS } from "../limits.js";
import { preludeSource } from "./prelude.js";
import { PRELUDE_FILENAME, compiledPrelude } from "./compiled-prelude.js";
import type { ScriptResult } from "./compiled-code/compiled-scripts.js";
import { SliceRunner } from "./slice-runner.js";
import type { SandboxClock } from "../types.js";

export interface PreludeEntry {
  init: QuickJSHandle;
  load: QuickJSHandle;
  invoke: QuickJSHandle;
  dispatch: QuickJSHandle;
  reply: QuickJSHandle;
}

export interface PreparedInstance {
  readonly instance: QuickJSInstance;
  readonly slices: SliceRunner;
  readonly bridge: HostBridge;
  readonly entry: PreludeEntry;
  /** The linear memory's cap was computed from this; a sandbox asking for another cap cannot use it. */
  readonly memoryBytes: number;
  readonly timeZone: string | undefined;
  /** Frees it unused (a spare nobody took). */
  dispose(): void;
}

/**
 * Makes an instance and evaluates the prelude in it, under the default slice limit.
 *
 * @example const prepared = await prepareInstance({ memoryBytes: 64 * 1024 * 1024 });
 */
export async function prepareInstance(options: {
  memoryBytes: number;
  timeZone?: string;
  clock?: Pick<SandboxClock, "now">;
}): Promise<PreparedInstance> {
  const limits = { ...DEFAULT_LIMITS, memoryBytes: options.memoryBytes };
  const [instance, prelude, preludeBytes] = await Promise.all([
    createInstance(limits, { timeZone: options.timeZone, clock: options.clock }),
    preludeSource(),
    compiledPrelude(),
  ]);
  const { context, runtime } = instance;
  const slices = new SliceRunner(runtime, context, limits.sliceMs);
  const bridge = new HostBridge(context, () => slices.markIfOverdue());
  bridge.install();
  let entry: PreludeEntry | undefined;
  const outcome = slices.run(() => {
    const result = runPrelude(instance, prelude, preludeBytes);
    if (result.error) throw new Error(`the prelude failed: ${slices.describe(result.error)}`);
    result.value.dispose();
    const handle = context.getProp(context.global, "__svc_entry");
    context.evalCode("delete globalThis.__svc_entry").dispose();
    entry = {
      init: context.getProp(handle, "init"),
      load: context.getProp(handle, "load"),
      invoke: context.getProp(handle, "invoke"),
      dispatch: context.getProp(handle, "dispatch"),
      reply: context.getProp(handle, "reply"),
    };
    handle.dispose();
  });
  if (outcome.interrupted || outcome.escaped.length || !entry)
    throw new Error(`the prelude failed: ${outcome.escaped.join("; ")}`);
  const captured = entry;
  return {
    instance,
    slices,
    bridge,
    entry: captured,
    memoryBytes: options.memoryBytes,
    timeZone: options.timeZone,
    dispose() {
      try {
        for (const handle of Object.values(captured)) handle.dispose();
        context.dispose();
        runtime.dispose();
      } catch {
        // dropped whole anyway (see Sandbox.dispose)
      }
    },
  };
}

/**
 * Runs the prelude from its compiled form when there is one that reads, else parses it.
 *
 * @example const result = runPrelude(instance, await preludeSource(), await compiledPrelude());
 */
export function runPrelude(instance: QuickJSInstance, prelude: string, bytes: Uint8Array | undefined): ScriptResult {
  const { context, scripts } = instance;
  const compiled = bytes && scripts?.fromBytes(bytes);
  if (compiled) {
    const ran = scripts!.run(compiled);
    compiled.dispose();
    if (ran) return ran;
  }
  const result = context.evalCode(prelude, PRELUDE_FILENAME, { type: "global" });
  return result.error ? { error: result.error } : { value: result.value };
}
