/**
 * The host's native base64 (src/byte-codec.ts): captured here and deleted from the global object
 * before any extension code runs, like the bridge's call functions. Absent (undefined) when the
 * host did not install it, e.g. in a test bundle; callers then use encoding.ts's JS loops.
 *
 * The prelude turns any byte container into (ArrayBuffer, offset, length) with the original
 * getters, captured now: an extension that replaces `byteLength` or `buffer` later cannot make
 * the host read outside the bytes it was given.
 */
type RawFromBase64 = (text: string) => ArrayBuffer;
type RawToBase64 = (buffer: ArrayBufferLike, offset: number, length: number, total: number) => string;
type Getter = (this: unknown) => unknown;

const g = globalThis as Record<string, unknown>;
const rawFromBase64 = g.__svc_bytesFromBase64 as RawFromBase64 | undefined;
const rawToBase64 = g.__svc_bytesToBase64 as RawToBase64 | undefined;
delete g.__svc_bytesFromBase64;
delete g.__svc_bytesToBase64;

const apply = Reflect.apply;
const isView = ArrayBuffer.isView;
const U8 = Uint8Array;
const getterOf = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get as Getter;
const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as object;
const VIEW_GETTERS = [typedArray, DataView.prototype].map((proto) =>
  ["buffer", "byteOffset", "byteLength"].map((n) => getterOf(proto, n)),
);
const LENGTH_GETTERS = [
  ArrayBuffer.prototype,
  ...(typeof SharedArrayBuffer === "function" ? [SharedArrayBuffer.prototype] : []),
].map((proto) => getterOf(proto, "byteLength"));

function tryGet(getter: Getter, value: unknown): unknown {
  try {
    return apply(getter, value, []);
  } catch {
    return undefined;
  }
}

/** Length of a real (Shared)ArrayBuffer, or undefined for anything else. */
function bufferLength(value: unknown): number | undefined {
  for (const getter of LENGTH_GETTERS) {
    const length = tryGet(getter, value);
    if (typeof length === "number") return length;
  }
  return undefined;
}

/** `[buffer, offset, length, bufferLength]` of an ArrayBuffer or ArrayBuffer view. */
function partsOf(bytes: unknown): [ArrayBufferLike, number, number, number] {
  if (typeof bytes === "object" && bytes !== null) {
    const total = bufferLength(bytes);
    if (total !== undefined) return [bytes as ArrayBufferLike, 0, total, total];
    if (isView(bytes)) {
      for (const [buffer, offset, length] of VIEW_GETTERS) {
        const parts = [tryGet(buffer, bytes), tryGet(offset, bytes), tryGet(length, bytes)] as [
          ArrayBufferLike,
          number,
          number,
        ];
        const whole = bufferLength(parts[0]);
        if (whole !== undefined) return [parts[0], parts[1], parts[2], whole];
      }
    }
  }
  const kind = bytes === null ? "null" : typeof bytes;
  throw new TypeError(`expected bytes (an ArrayBuffer or a typed array), got ${kind}`);
}

/**
 * Bytes of base64 text (forgiving: whitespace ignored, padding optional), decoded by the host.
 * @example nativeFromBase64?.("AAEC") // Uint8Array [0, 1, 2]
 */
export const nativeFromBase64 = rawFromBase64 && ((text: string): Uint8Array => new U8(rawFromBase64(text)));

/**
 * Base64 of an ArrayBuffer or view's bytes, encoded by the host.
 * @example nativeToBase64?.(new Uint8Array([255, 0])) // "/wA="
 */
export const nativeToBase64 =
  rawToBase64 && ((bytes: Uint8Array): string => apply(rawToBase64, undefined, partsOf(bytes)) as string);
