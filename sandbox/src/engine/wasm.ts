/**
 * The QuickJS-ng `.wasm`, compiled once per thread. The owner thread compiles it and posts the
 * compiled WebAssembly.Module to each sandbox thread (`adoptCompiledModule`), so no thread compiles
 * it twice and every instance shares the same machine code. The pinned build is patched first so
 * it can keep compiled code (compiled-code/wasm-patch.ts); any other build is used as it is.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { patchForCompiledCode } from "./compiled-code/wasm-patch.js";

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * The compiled QuickJS module of this thread, compiling it on first use.
 *
 * @example const module = await quickjsWasmModule(); worker.postMessage({ module });
 */
export function quickjsWasmModule(): Promise<WebAssembly.Module> {
  compiled ??= compile();
  return compiled;
}

/** Uses a module compiled elsewhere (posted from the owner thread) instead of compiling again. */
export function adoptCompiledModule(module: WebAssembly.Module): void {
  compiled = Promise.resolve(module);
}

async function compile(): Promise<WebAssembly.Module> {
  const require = createRequire(import.meta.url);
  const path = require.resolve("@jitl/quickjs-ng-wasmfile-release-sync/wasm");
  const original = await readFile(path);
  return WebAssembly.compile(patchForCompiledCode(original) ?? original);
}
