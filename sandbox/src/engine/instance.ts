/**
 * One QuickJS-ng interpreter in its own WebAssembly instance with its own linear memory. The
 * memory's `maximum` is the hard cap on the guest (QuickJS's `setMemoryLimit` alone is not one
 * in this build: quickjs-emscripten issues 255 and 271).
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import type { QuickJSContext, QuickJSRuntime, QuickJSSyncVariant } from "quickjs-emscripten-core";
import variantModule from "@jitl/quickjs-ng-wasmfile-release-sync";
import { CompiledScripts } from "./compiled-code/compiled-scripts.js";
import { EVAL_FUNCTION_EXPORT } from "./compiled-code/wasm-patch.js";
import { memoryPages } from "../limits.js";
import { clockImports } from "./clock-imports.js";
import { zoneImports } from "./time-zone.js";
import type { SandboxClock, SandboxLimits } from "../types.js";
import { quickjsWasmModule } from "./wasm.js";

/**
 * The published QuickJS-ng variant as it ships (tests build plain modules from it). Its types
 * describe its CommonJS face; under ESM the default export is the variant itself.
 */
export const baseVariant = ((variantModule as { default?: QuickJSSyncVariant }).default ??
  variantModule) as QuickJSSyncVariant;

export interface QuickJSInstance {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  readonly memory: WebAssembly.Memory;
  /** True once the linear memory refused to grow: the guest reached the hard cap. */
  readonly memoryExhausted: boolean;
  /** Compiles and runs compiled code; absent when the engine is not the patched build. */
  readonly scripts: CompiledScripts | undefined;
}

/**
 * Instantiates the shared compiled module with a fresh memory and sets the limits. With a
 * `timeZone` (IANA name) the guest's local time is that zone's, else the host process's; with a
 * `clock`, the guest's `Date` and `performance.now()` read it instead of the real time.
 *
 * @example const { runtime, context } = await createInstance(resolveLimits(), { timeZone: "Asia/Tokyo" });
 */
export async function createInstance(
  limits: SandboxLimits,
  options: { timeZone?: string; clock?: Pick<SandboxClock, "now"> } = {},
): Promise<QuickJSInstance> {
  const memory = new WebAssembly.Memory(memoryPages(limits));
  const state = { memoryExhausted: false };
  watchGrowth(memory, () => (state.memoryExhausted = true));
  const compiled = await quickjsWasmModule();
  let evalFunction: ((ctx: number, value: number) => number) | undefined;
  const variant = newVariant(baseVariant, {
    wasmMemory: memory,
    log: noLog,
    emscriptenModule: {
      // Instantiated here rather than through `wasmModule`, to reach the import object first.
      instantiateWasm(
        imports: WebAssembly.Imports,
        onSuccess: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) {
        if (options.timeZone) zoneImports(imports, memory, options.timeZone);
        if (options.clock) clockImports(imports, memory, options.clock);
        void WebAssembly.instantiate(compiled, imports).then((instance) => {
          evalFunction = instance.exports[EVAL_FUNCTION_EXPORT] as typeof evalFunction;
          onSuccess(instance, compiled);
        });
        return {};
      },
    } as never,
  });
  const module = await newQuickJSWASMModuleFromVariant(variant);
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const context = runtime.newContext();
  return {
    runtime,
    context,
    memory,
    scripts: evalFunction && new CompiledScripts(context, evalFunction),
    get memoryExhausted() {
      return state.memoryExhausted;
    },
  };
}

/** Emscripten grows the heap through `memory.grow`; a refusal there means the cap was reached. */
function watchGrowth(memory: WebAssembly.Memory, onRefused: () => void): void {
  const grow = memory.grow.bind(memory);
  Object.defineProperty(memory, "grow", {
    value: function growWatched(pages: number): number {
      try {
        return grow(pages);
      } catch (error) {
        onRefused();
        throw error;
      }
    },
  });
}

function noLog(): void {}
