// Where a sandbox's cold start goes, measured on a bare QuickJS-ng instance in this thread, built
// the way sandbox/src/engine/instance.ts builds one (shared compiled module, own 16 MB memory): the
// instance, the prelude, parsing the bundle, running it, the first update().
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import variantModule from "@jitl/quickjs-ng-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";

const require = createRequire(import.meta.url);
const baseVariant = variantModule.default ?? variantModule;
const preludePath = require.resolve("@svc/sandbox").replace(/index\.js$/, "guest-prelude.js");

/** Loads the compiled module and the prelude once. */
export async function phaseTimer() {
  const wasmModule = await WebAssembly.compile(
    readFileSync(require.resolve("@jitl/quickjs-ng-wasmfile-release-sync/wasm")),
  );
  const prelude = readFileSync(preludePath, "utf8");
  /**
   * One cold start of `code`, phase by phase (ms).
   *
   * @example const p = await timer(code); p.parse
   */
  return async function phases(code) {
    const mark = { t: performance.now() };
    const lap = () => -mark.t + (mark.t = performance.now());
    const memory = new WebAssembly.Memory({ initial: 256, maximum: 1152 });
    const module = await newQuickJSWASMModuleFromVariant(newVariant(baseVariant, { wasmModule, wasmMemory: memory }));
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    const instance = lap();
    context.unwrapResult(context.evalCode(prelude, "svc:prelude.js")).dispose();
    const preludeMs = lap();
    // QuickJS compiles the whole script to bytecode when it is evaluated: evaluating the wrapper
    // is the parse (what the code cache saves on a later start), calling it runs the bundle's top level.
    const fn = context.unwrapResult(context.evalCode(`(function (module, exports) {${code}\n})`, "dist/index.js"));
    const parse = lap();
    const moduleObject = context.newObject();
    const exportsObject = context.newObject();
    context.setProp(moduleObject, "exports", exportsObject);
    context.unwrapResult(context.callFunction(fn, context.undefined, moduleObject, exportsObject)).dispose();
    const execute = lap();
    const exported = context.getProp(moduleObject, "exports");
    const extension = context.getProp(exported, "default");
    const update = context.getProp(extension, "update");
    context.unwrapResult(context.callFunction(update, extension)).dispose();
    const firstUpdate = lap();
    for (const handle of [update, extension, exported, exportsObject, moduleObject, fn]) handle.dispose();
    context.dispose();
    runtime.dispose();
    return { instance, prelude: preludeMs, parse, execute, firstUpdate };
  };
}
