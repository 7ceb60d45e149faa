/**
 * Two things every guest slice and bridge call asks QuickJS, done straight through the FFI:
 * running the promise jobs, and whether a value is a string. The stock `executePendingJobs`
 * allocates a pointer array, a typed array, a Lifetime and a result object per call and decodes
 * the result's `typeof` into a JS string; `context.typeof` decodes one too. Here the type is read
 * from its first bytes in linear memory and nothing is allocated per call.
 *
 * Same internals as lean-function.ts (quickjs-emscripten-core 0.32); where they are not as
 * expected, the stock calls are used: slower, never wrong.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";

interface Internals {
  ctx: { value: number };
  rt: { value: number };
  ffi: {
    QTS_ExecutePendingJob(rt: number, maxJobs: number, lastJobContext: number): number;
    QTS_FreeValuePointer(ctx: number, value: number): void;
    QTS_FreeValuePointerRuntime(rt: number, value: number): void;
    QTS_Typeof(ctx: number, value: number): number;
  };
  module?: { _malloc(bytes: number): number; _free(pointer: number): void; HEAPU8: Uint8Array };
  memory?: { heapValueHandle(pointer: number): QuickJSHandle };
}

/** Per context: a word in its linear memory for the last job's context pointer (freed with that memory). */
const jobContextWords = new WeakMap<QuickJSContext, number>();

function internalsOf(context: QuickJSContext): Internals | undefined {
  const internals = context as unknown as Internals;
  const { ffi, module } = internals;
  if (
    typeof ffi?.QTS_ExecutePendingJob !== "function" ||
    typeof ffi.QTS_Typeof !== "function" ||
    typeof module?._malloc !== "function" ||
    !internals.memory ||
    typeof internals.rt?.value !== "number"
  ) {
    return undefined;
  }
  return internals;
}

/** True when `context`'s internals are as expected, so the lean reads are used (false: the stock calls). */
export function readsLean(context: QuickJSContext): boolean {
  return internalsOf(context) !== undefined;
}

/** The first two bytes of the C string QuickJS's `typeof` gives for `value`, which it then frees. */
function typeofStart(internals: Internals, value: number): [number, number] {
  const { ffi, module, ctx } = internals;
  const text = ffi.QTS_Typeof(ctx.value, value);
  const start: [number, number] = [module!.HEAPU8[text], module!.HEAPU8[text + 1]];
  module!._free(text);
  return start;
}

const N = 0x6e; // "n": only "number" starts with it
const S = 0x73; // "s": "string" or "symbol"
const T = 0x74; // "t": the second letter of "string"

/**
 * True when `handle` is a string (what `context.typeof(handle) === "string"` says).
 *
 * @example if (!isGuestString(context, handle)) throw new TypeError("should be a string");
 */
export function isGuestString(context: QuickJSContext, handle: QuickJSHandle): boolean {
  const internals = internalsOf(context);
  if (!internals) return context.typeof(handle) === "string";
  const [first, second] = typeofStart(internals, handle.value as unknown as number);
  return first === S && second === T;
}

/**
 * Runs every pending promise job of `runtime` (whose one context is `context`) until none is left
 * or one throws; returns the thrown value's handle (the caller disposes it), or undefined.
 *
 * @example const thrown = runPendingJobs(runtime, context); if (thrown) report(thrown);
 */
export function runPendingJobs(runtime: QuickJSRuntime, context: QuickJSContext): QuickJSHandle | undefined {
  const internals = internalsOf(context);
  if (!internals) {
    const jobs = runtime.executePendingJobs();
    return jobs.error;
  }
  const { ffi, module, ctx, rt, memory } = internals;
  let word = jobContextWords.get(context);
  if (word === undefined) {
    word = module!._malloc(4);
    jobContextWords.set(context, word);
  }
  const heap = module!.HEAPU8;
  heap[word] = heap[word + 1] = heap[word + 2] = heap[word + 3] = 0;
  const value = ffi.QTS_ExecutePendingJob(rt.value, -1, word);
  // Read after the call: the jobs may have grown the memory (a new HEAPU8).
  const bytes = module!.HEAPU8;
  const jobContext = (bytes[word] | (bytes[word + 1] << 8) | (bytes[word + 2] << 16) | (bytes[word + 3] << 24)) >>> 0;
  if (jobContext === 0) {
    ffi.QTS_FreeValuePointerRuntime(rt.value, value);
    return undefined;
  }
  if (jobContext !== ctx.value) {
    // Another context of this runtime (a sandbox has one): not ours to read; treated as done.
    ffi.QTS_FreeValuePointerRuntime(rt.value, value);
    return undefined;
  }
  // The count of jobs run (a number), or what a job threw (a number thrown reads as a count, as in the stock call).
  if (typeofStart(internals, value)[0] === N) {
    ffi.QTS_FreeValuePointer(ctx.value, value);
    return undefined;
  }
  return memory!.heapValueHandle(value);
}
