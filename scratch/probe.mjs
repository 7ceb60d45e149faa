import { newQuickJSWASMModuleFromVariant, newVariant, shouldInterruptAfterDeadline } from "quickjs-emscripten-core";
import base from "@jitl/quickjs-ng-wasmfile-release-sync";
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const wasmPath = require.resolve("@jitl/quickjs-ng-wasmfile-release-sync/wasm");
let t0 = performance.now();
const wasmModule = await WebAssembly.compile(fs.readFileSync(wasmPath));
console.log("compile ms", performance.now() - t0);
async function make(mb) {
  const t = performance.now();
  const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum: (mb * 1024 * 1024) / 65536 });
  const variant = newVariant(base, { wasmModule, wasmMemory });
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const rt = mod.newRuntime();
  rt.setMemoryLimit(mb * 1024 * 1024);
  rt.setMaxStackSize(256 * 1024);
  const ctx = rt.newContext();
  return { mod, rt, ctx, ms: performance.now() - t, wasmMemory };
}
const a = await make(64);
console.log("instance ms", a.ms);
const b = await make(64);
console.log("instance2 ms", b.ms);
const r = a.ctx.evalCode(`typeof URL + ' ' + typeof TextEncoder + ' ' + typeof structuredClone + ' ' + typeof setTimeout + ' ' + typeof console+ ' ' + typeof queueMicrotask + ' ' + typeof performance + ' ' + typeof atob + ' ' + typeof globalThis.navigator`);
console.log(a.ctx.dump(r.value)); r.value?.dispose?.();
try {
  const r2 = a.ctx.evalCode(`let s = 'x'; for (let i=0;i<40;i++) s += s; s.length`);
  console.log("bomb", r2.error ? a.ctx.dump(r2.error) : a.ctx.dump(r2.value));
} catch (e) { console.log("host threw", e.message); }
console.log("b still", b.ctx.dump(b.ctx.unwrapResult(b.ctx.evalCode("1+2"))));
console.log(process.memoryUsage());
