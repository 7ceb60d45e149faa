/**
 * Native base64 for the guest: `__svc_bytesFromBase64` and `__svc_bytesToBase64`, installed
 * beside the bridge's call functions and captured (then deleted) by the prelude. A byte loop in
 * QuickJS costs about 2 µs a byte, so a megabyte would take seconds of the guest's slice; here
 * Buffer does it in a millisecond. Bytes always cross as copies: the guest gets a new
 * ArrayBuffer in its own heap, never a view of Node memory.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { MAX_CODEC_BASE64_CHARS, MAX_CODEC_BYTES } from "../limits.js";

type HostResult = QuickJSHandle | { error: QuickJSHandle };

/** The forgiving-base64 alphabet after whitespace and padding are removed. */
const NOT_BASE64 = /[^A-Za-z0-9+/]/;
const WHITESPACE = /[\t\n\f\r ]/g;

/**
 * Defines the two globals in `context`. `sliceOver` makes them fail at once once the guest's
 * slice is past its time (Node work is invisible to QuickJS's interrupt counter).
 *
 * @example installByteCodec(context, () => slices.markIfOverdue());
 */
export function installByteCodec(context: QuickJSContext, sliceOver: () => boolean): void {
  const guarded = (body: () => QuickJSHandle): HostResult => {
    try {
      if (sliceOver()) throw new Error("interrupted");
      return body();
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      return { error: context.newError({ name, message }) };
    }
  };
  const fromBase64 = context.newFunction("__svc_bytesFromBase64", (textHandle) =>
    guarded(() => {
      const bytes = decodeForgiving(readBase64Text(context, textHandle));
      return context.newArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    }),
  );
  const toBase64 = context.newFunction("__svc_bytesToBase64", (bufferHandle, offsetHandle, lengthHandle, totalHandle) =>
    guarded(() =>
      context.newString(readBytes(context, bufferHandle, offsetHandle, lengthHandle, totalHandle).toString("base64")),
    ),
  );
  context.setProp(context.global, "__svc_bytesFromBase64", fromBase64);
  context.setProp(context.global, "__svc_bytesToBase64", toBase64);
  fromBase64.dispose();
  toBase64.dispose();
}

/** The guest string, type and length checked before it is copied out. */
function readBase64Text(context: QuickJSContext, handle: QuickJSHandle | undefined): string {
  if (!handle || context.typeof(handle) !== "string") {
    throw new TypeError(`base64 decoding: expected a string, got ${handle ? context.typeof(handle) : "nothing"}`);
  }
  const length = context.getProp(handle, "length").consume((n) => context.getNumber(n));
  if (length > MAX_CODEC_BASE64_CHARS) {
    throw new RangeError(
      `base64 decoding: the text is ${length} characters long, over the limit of ${MAX_CODEC_BASE64_CHARS}`,
    );
  }
  return context.getString(handle);
}

/** Forgiving base64 (ASCII whitespace ignored, padding optional), as guest/encoding.ts's fromBase64. */
function decodeForgiving(text: string): Buffer {
  const clean = text.replace(WHITESPACE, "");
  const body = clean.length % 4 === 0 ? clean.replace(/={1,2}$/, "") : clean;
  if (body.length % 4 === 1 || NOT_BASE64.test(body)) {
    const error = new Error("The string to be decoded is not correctly encoded.");
    error.name = "InvalidCharacterError";
    throw error;
  }
  return Buffer.from(body, "base64");
}

/**
 * Copies `length` bytes at `offset` out of a guest ArrayBuffer. `total` is the buffer's length as
 * the prelude read it with the original `byteLength` getter; the range is checked against it and
 * QuickJS's own copy must have exactly that length, so nothing past the buffer is ever read.
 */
function readBytes(
  context: QuickJSContext,
  bufferHandle: QuickJSHandle | undefined,
  offsetHandle: QuickJSHandle | undefined,
  lengthHandle: QuickJSHandle | undefined,
  totalHandle: QuickJSHandle | undefined,
): Buffer {
  if (!bufferHandle || context.typeof(bufferHandle) !== "object") {
    throw new TypeError(
      `base64 encoding: expected an ArrayBuffer, got ${bufferHandle ? context.typeof(bufferHandle) : "nothing"}`,
    );
  }
  const [offset, length, total] = [offsetHandle, lengthHandle, totalHandle].map((h) => readIndex(context, h));
  if (length > MAX_CODEC_BYTES) {
    throw new RangeError(`base64 encoding: the data is ${length} bytes, over the limit of ${MAX_CODEC_BYTES}`);
  }
  if (offset + length > total) throw new RangeError("base64 encoding: the range is outside the buffer");
  if (length === 0) return Buffer.alloc(0);
  let copy: Buffer | undefined;
  try {
    context.getArrayBuffer(bufferHandle).consume(({ value: view }) => {
      // Copied before the lifetime frees QuickJS's copy.
      if (view.length === total) copy = Buffer.from(view.subarray(offset, offset + length));
    });
  } catch {
    // not an ArrayBuffer (or no memory for QuickJS's copy): refused below
  }
  if (!copy) throw new TypeError("base64 encoding: expected an ArrayBuffer");
  return copy;
}

function readIndex(context: QuickJSContext, handle: QuickJSHandle | undefined): number {
  const value = handle && context.typeof(handle) === "number" ? context.getNumber(handle) : NaN;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError("base64 encoding: offset and length should be integers ≥ 0");
  return value;
}
