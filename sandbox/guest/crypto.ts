/**
 * `crypto.getRandomValues` and `crypto.randomUUID`, from the host's CSPRNG (op `crypto.random`);
 * `crypto.subtle` is a lazy part (subtle.ts), loaded on first touch.
 */
import type { Bridge } from "./bridge.ts";
import { fromBase64 } from "./encoding.ts";

const MAX_BYTES = 65536;

export function installCrypto(bridge: Bridge, loadSubtle: () => unknown): void {
  function randomBytes(n: number): Uint8Array {
    return fromBase64(bridge.callSync("crypto.random", { n }));
  }

  function getRandomValues<T extends ArrayBufferView | null>(array: T): T {
    const ok =
      array instanceof Int8Array ||
      array instanceof Uint8Array ||
      array instanceof Uint8ClampedArray ||
      array instanceof Int16Array ||
      array instanceof Uint16Array ||
      array instanceof Int32Array ||
      array instanceof Uint32Array ||
      array instanceof BigInt64Array ||
      array instanceof BigUint64Array;
    if (!ok) throw new TypeError("crypto.getRandomValues: the argument must be an integer typed array");
    const view = array as unknown as Uint8Array;
    if (view.byteLength > MAX_BYTES) {
      const error = new Error(`crypto.getRandomValues: ${view.byteLength} bytes asked, over the limit of ${MAX_BYTES}`);
      error.name = "QuotaExceededError";
      throw error;
    }
    new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(randomBytes(view.byteLength));
    return array;
  }

  function randomUUID(): string {
    const b = randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  const crypto = { getRandomValues, randomUUID };
  Object.defineProperty(crypto, "subtle", { get: loadSubtle, enumerable: true, configurable: true });
  Object.defineProperty(globalThis, "crypto", {
    value: crypto,
    writable: true,
    configurable: true,
  });
}
