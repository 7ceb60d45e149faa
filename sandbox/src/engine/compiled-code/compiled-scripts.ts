/**
 * Compiling a script without running it, turning its compiled form into bytes, and running
 * compiled bytes in another instance later: what makes a second start of an extension skip
 * QuickJS's parser. Needs the patched engine (wasm-patch.ts).
 *
 * quickjs-emscripten has no public face for this, so this file alone reaches three of
 * QuickJSContext's protected members (its context pointer, FFI and handle maker), exactly as
 * the context's own `evalCode` uses them.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

type EvalFunction = (ctx: number, valuePointer: number) => number;

interface ContextInternals {
  ctx: { value: number };
  ffi: {
    QTS_bjson_encode(ctx: number, value: number): number;
    QTS_bjson_decode(ctx: number, value: number): number;
    QTS_ResolveException(ctx: number, value: number): number;
    QTS_FreeValuePointer(ctx: number, value: number): void;
  };
  memory: { heapValueHandle(pointer: number): QuickJSHandle };
}

/** What running a script gave: its value, or what it threw. Dispose whichever is set. */
export type ScriptResult = { value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle; value?: undefined };

/**
 * The text QuickJS compiles for a bundle: the CommonJS bundle as a function of its module
 * system. One definition, because the code cache keys compiled code by this exact text.
 */
export function bundleScript(code: string): string {
  return `${BUNDLE_PREFIX}${code}\n})`;
}

/** What comes before the bundle on its first line: columns there are this much further right in stacks. */
export const BUNDLE_PREFIX = "(function (module, exports, require) {";

export class CompiledScripts {
  private readonly internals: ContextInternals;

  constructor(
    private readonly context: QuickJSContext,
    private readonly evalFunction: EvalFunction,
  ) {
    this.internals = context as unknown as ContextInternals;
  }

  /** Compiles `script` (global code) without running it: a handle to its compiled form. */
  compile(script: string, filename: string): ScriptResult {
    const result = this.context.evalCode(script, filename, { type: "global", compileOnly: true });
    return result.error ? { error: result.error } : { value: result.value };
  }

  /** The compiled form as bytes (a copy), or undefined when the engine cannot write it. */
  toBytes(compiled: QuickJSHandle): Uint8Array | undefined {
    const { ctx, ffi } = this.internals;
    const result = this.settle(ffi.QTS_bjson_encode(ctx.value, compiled.value));
    if (result.error) {
      result.error.dispose();
      return undefined;
    }
    return result.value.consume((buffer) => this.context.getArrayBuffer(buffer).consume((view) => view.value.slice()));
  }

  /** Reads bytes made by `toBytes` back into compiled form; undefined when they do not read. */
  fromBytes(bytes: Uint8Array): QuickJSHandle | undefined {
    const { ctx, ffi } = this.internals;
    const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const result = this.context
      .newArrayBuffer(copy)
      .consume((buffer) => this.settle(ffi.QTS_bjson_decode(ctx.value, buffer.value)));
    if (result.error) {
      result.error.dispose();
      return undefined;
    }
    return result.value;
  }

  /** Runs compiled code (the handle stays the caller's); undefined if the handle is not compiled code. */
  run(compiled: QuickJSHandle): ScriptResult | undefined {
    const pointer = this.evalFunction(this.internals.ctx.value, compiled.value as unknown as number);
    return pointer === 0 ? undefined : this.settle(pointer);
  }

  /** A result pointer as evalCode reads one: the pending exception if it is JS_EXCEPTION. */
  private settle(pointer: number): ScriptResult {
    const { ctx, ffi, memory } = this.internals;
    const errorPointer = ffi.QTS_ResolveException(ctx.value, pointer);
    if (!errorPointer) return { value: memory.heapValueHandle(pointer) };
    ffi.QTS_FreeValuePointer(ctx.value, pointer);
    return { error: memory.heapValueHandle(errorPointer) };
  }
}
