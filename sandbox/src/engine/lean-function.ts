/**
 * Host functions that QuickJS calls without quickjs-emscripten's per-call wrappers. The stock
 * path (`context.newFunction`) runs every guest → host call through a generator, a Scope and one
 * WeakLifetime per argument, all garbage a moment later: about a third of a bridge call's cost on
 * the sandbox thread. A lean function gets its arguments as borrowed handles (StaticLifetime: valid
 * for the call only, never freed by us) and its result is copied out like the stock path does.
 *
 * It works by taking over the context's C → host callback (`cToHostCallbacks.callFunction`, an
 * internal of quickjs-emscripten-core 0.32) for the lean functions only; every other host function
 * still takes the stock path. If a later version changes that internal, the functions fall back to
 * the stock path: slower, never wrong.
 */
import { StaticLifetime, type QuickJSContext, type QuickJSHandle } from "quickjs-emscripten-core";

/** What a lean function returns: a handle it owns (copied out, then freed), or an error to throw. */
export type LeanResult = QuickJSHandle | { error: QuickJSHandle };

/** Reads its arguments synchronously; they are borrowed and must not be kept or disposed. */
export type LeanImplementation = (args: QuickJSHandle[]) => LeanResult;

type CallFunction = (ctx: number, thisPtr: number, argc: number, argv: number, fnId: number) => number;

/** The few internals of QuickJSContext the lean path needs. */
interface ContextInternals {
  ctx: { value: number };
  ffi: {
    QTS_ArgvGetJSValueConstPointer(argv: number, index: number): number;
    QTS_DupValuePointer(ctx: number, value: number): number;
    QTS_Throw(ctx: number, error: number): number;
    QTS_Call(ctx: number, fn: number, thisValue: number, argc: number, argv: number): number;
    QTS_ResolveException(ctx: number, value: number): number;
    QTS_FreeValuePointer(ctx: number, value: number): void;
  };
  module?: { _malloc(bytes: number): number; HEAPU8: Uint8Array };
  memory?: { heapValueHandle(pointer: number): QuickJSHandle };
  runtime: never;
  cToHostCallbacks?: { callFunction?: CallFunction };
  getFunction(fnId: number): unknown;
}

/** Per context: the stock implementation object of each lean function → its lean body. */
const leanBodies = new WeakMap<QuickJSContext, WeakMap<object, LeanImplementation>>();

/**
 * Defines a host function on `context` that takes the lean path when it can.
 *
 * @example
 * const fn = newLeanFunction(context, "__svc_call", ([op, json]) => context.newNumber(1));
 * context.setProp(context.global, "__svc_call", fn);
 * fn.dispose();
 */
export function newLeanFunction(context: QuickJSContext, name: string, body: LeanImplementation): QuickJSHandle {
  // The stock wrapper stays the function's identity (and its path, should the lean one be unavailable).
  const stock = (...args: QuickJSHandle[]) => body(args);
  const handle = context.newFunction(name, stock);
  bodiesOf(context)?.set(stock, body);
  return handle;
}

/** True once `context`'s lean functions take the lean path (false: the stock one, a changed internal). */
export function takesLeanPath(context: QuickJSContext): boolean {
  return leanBodies.has(context);
}

/** The lean bodies of `context`, taking over its C → host callback on first use; undefined if it cannot. */
function bodiesOf(context: QuickJSContext): WeakMap<object, LeanImplementation> | undefined {
  const known = leanBodies.get(context);
  if (known) return known;
  const internals = context as unknown as ContextInternals;
  const callbacks = internals.cToHostCallbacks;
  const stockCall = callbacks?.callFunction;
  const { ffi } = internals;
  if (
    typeof stockCall !== "function" ||
    typeof internals.getFunction !== "function" ||
    typeof ffi?.QTS_ArgvGetJSValueConstPointer !== "function"
  ) {
    return undefined;
  }
  const bodies = new WeakMap<object, LeanImplementation>();
  leanBodies.set(context, bodies);
  callbacks!.callFunction = (ctx, thisPtr, argc, argv, fnId) => {
    const body = ctx === internals.ctx.value ? bodies.get(internals.getFunction(fnId) as object) : undefined;
    if (!body) return stockCall(ctx, thisPtr, argc, argv, fnId);
    const args = new Array<QuickJSHandle>(argc);
    for (let i = 0; i < argc; i++) {
      const pointer = ffi.QTS_ArgvGetJSValueConstPointer(argv, i);
      args[i] = new StaticLifetime(pointer, internals.runtime) as unknown as QuickJSHandle;
    }
    let result: LeanResult;
    try {
      result = body(args);
    } catch (error) {
      // A body should return its errors; one that throws still makes only the guest call throw.
      result = {
        error: context.newError({ name: "Error", message: error instanceof Error ? error.message : String(error) }),
      };
    }
    const error = (result as { error?: QuickJSHandle }).error;
    if (error) {
      const thrown = ffi.QTS_Throw(ctx, error.value);
      error.dispose();
      return thrown;
    }
    const value = result as QuickJSHandle;
    const copy = ffi.QTS_DupValuePointer(ctx, value.value);
    value.dispose();
    return copy;
  };
  return bodies;
}

/** Per context: a buffer in its linear memory for callLean's argument pointers (freed with that memory), and a view of it. */
const argvBuffers = new WeakMap<QuickJSContext, { pointer: number; view: Uint32Array }>();
const MAX_LEAN_ARGS = 4;

/**
 * Calls guest function `fn` (this: undefined) and frees its result, without the stock
 * callFunction's per-call allocations (an array, a typed array, a malloc and a Lifetime for the
 * argument pointers). Returns the thrown error's handle, which the caller must dispose, or
 * undefined. Falls back to `context.callFunction` where the internals are not as expected.
 *
 * @example const thrown = callLean(context, entry.dispatch, [kind, json]); thrown?.dispose();
 */
export function callLean(context: QuickJSContext, fn: QuickJSHandle, args: QuickJSHandle[]): QuickJSHandle | undefined {
  const { ffi, module, memory, ctx } = context as unknown as ContextInternals;
  if (args.length > MAX_LEAN_ARGS || typeof ffi?.QTS_Call !== "function" || !module?._malloc || !memory) {
    const out = context.callFunction(fn, context.undefined, ...args);
    if (out.error) return out.error;
    out.value.dispose();
    return undefined;
  }
  let argv = argvBuffers.get(context);
  // A grown memory has a new buffer: the view is made again over it.
  if (argv?.view.buffer !== module.HEAPU8.buffer) {
    const pointer = argv?.pointer ?? module._malloc(MAX_LEAN_ARGS * 4);
    argv = { pointer, view: new Uint32Array(module.HEAPU8.buffer, pointer, MAX_LEAN_ARGS) };
    argvBuffers.set(context, argv);
  }
  for (let i = 0; i < args.length; i++) argv.view[i] = args[i].value as unknown as number;
  const pointer = (handle: QuickJSHandle) => handle.value as unknown as number;
  const result = ffi.QTS_Call(ctx.value, pointer(fn), pointer(context.undefined), args.length, argv.pointer);
  const error = ffi.QTS_ResolveException(ctx.value, result);
  ffi.QTS_FreeValuePointer(ctx.value, result);
  return error ? memory.heapValueHandle(error) : undefined;
}
