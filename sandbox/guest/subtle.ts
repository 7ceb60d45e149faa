/**
 * `crypto.subtle`, `CryptoKey` and `SubtleCrypto`, backed by the host's WebCrypto (async op
 * `crypto.subtle`; src/subtle-ops.ts). A guest CryptoKey holds only the number of a key kept
 * by the host for this sandbox. A lazy part of the prelude, loaded by the first touch of
 * `crypto.subtle`, `CryptoKey` or `SubtleCrypto`.
 */
import type { Bridge } from "./bridge.ts";
import { makeError } from "./errors.ts";

export const GLOBALS = ["CryptoKey", "SubtleCrypto"];

interface KeyRecord {
  key: number;
  type: string;
  extractable: boolean;
  algorithm: Record<string, unknown>;
  usages: string[];
}

const defineProperty = Object.defineProperty;
const isView = ArrayBuffer.isView;

export function install(bridge: Bridge): object {
  const toBase64 = bridge.bytesToBase64!;
  const fromBase64 = bridge.bytesFromBase64!;
  const numbers = new WeakMap<object, number>();
  let constructing = false;

  function bytes(value: unknown, what = "data"): string {
    if (value instanceof ArrayBuffer) return toBase64(new Uint8Array(value));
    if (isView(value)) return toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    throw new TypeError(`crypto.subtle: ${what} should be an ArrayBuffer or a view of one`);
  }

  class CryptoKey {
    declare readonly type: string;
    declare readonly extractable: boolean;
    declare readonly algorithm: Record<string, unknown>;
    declare readonly usages: string[];
    constructor() {
      if (!constructing) throw new TypeError("Illegal constructor");
    }
  }
  defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: "CryptoKey", configurable: true });

  function keyFrom(record: KeyRecord): CryptoKey {
    constructing = true;
    const key = new CryptoKey();
    constructing = false;
    const algorithm: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(record.algorithm)) {
      const encoded = value as { bytes?: string } | null;
      algorithm[name] =
        encoded && typeof encoded === "object" && typeof encoded.bytes === "string" ? fromBase64(encoded.bytes) : value;
    }
    defineProperty(key, "type", { value: record.type, enumerable: true });
    defineProperty(key, "extractable", { value: record.extractable, enumerable: true });
    defineProperty(key, "algorithm", { value: algorithm, enumerable: true });
    defineProperty(key, "usages", { value: record.usages, enumerable: true });
    numbers.set(key, record.key);
    return key;
  }

  function keyRef(key: unknown): { key: number } {
    const number = typeof key === "object" && key !== null ? numbers.get(key) : undefined;
    if (number === undefined) throw new TypeError("crypto.subtle: expected a CryptoKey");
    return { key: number };
  }

  /** An algorithm as JSON: bytes as base64, a key as its number, a hash as its name. */
  function algorithm(value: unknown): unknown {
    if (typeof value === "string") return value;
    if (typeof value !== "object" || value === null)
      throw new TypeError("crypto.subtle: the algorithm should be a name or an object");
    const out: Record<string, unknown> = {};
    for (const name in value) {
      const member = (value as Record<string, unknown>)[name];
      if (member === undefined) continue;
      if (name === "public") out.public = keyRef(member);
      else if (name === "hash")
        out.hash = typeof member === "string" ? member : { name: String((member as { name?: unknown }).name) };
      else if (member instanceof ArrayBuffer || isView(member)) out[name] = bytes(member, name);
      else out[name] = member;
    }
    return out;
  }

  async function call(method: string, args: Record<string, unknown>): Promise<any> {
    try {
      return await bridge.call("crypto.subtle", { method, ...args });
    } catch (error) {
      const { name, message } = error as Error;
      throw makeError(String(name), String(message));
    }
  }
  const buffer = (result: { bytes: string }) => fromBase64(result.bytes).buffer;
  const keyOrPair = (result: KeyRecord | { publicKey: KeyRecord; privateKey: KeyRecord }) =>
    "publicKey" in result
      ? { publicKey: keyFrom(result.publicKey), privateKey: keyFrom(result.privateKey) }
      : keyFrom(result);
  const keyData = (format: unknown, data: unknown) => (format === "jwk" ? data : bytes(data, "the key data"));

  class SubtleCrypto {
    constructor() {
      if (!constructing) throw new TypeError("Illegal constructor");
    }
    async digest(alg: unknown, data: unknown) {
      return buffer(await call("digest", { algorithm: algorithm(alg), data: bytes(data) }));
    }
    async importKey(format: unknown, data: unknown, alg: unknown, extractable: unknown, usages: Iterable<string>) {
      return keyFrom(
        await call("importKey", {
          format,
          keyData: keyData(format, data),
          algorithm: algorithm(alg),
          extractable: !!extractable,
          usages: [...usages],
        }),
      );
    }
    async exportKey(format: unknown, key: unknown) {
      const result = await call("exportKey", { format, key: keyRef(key) });
      return "jwk" in result ? result.jwk : buffer(result);
    }
    async sign(alg: unknown, key: unknown, data: unknown) {
      return buffer(await call("sign", { algorithm: algorithm(alg), key: keyRef(key), data: bytes(data) }));
    }
    async verify(alg: unknown, key: unknown, signature: unknown, data: unknown) {
      return call("verify", {
        algorithm: algorithm(alg),
        key: keyRef(key),
        signature: bytes(signature, "the signature"),
        data: bytes(data),
      }) as Promise<boolean>;
    }
    async encrypt(alg: unknown, key: unknown, data: unknown) {
      return buffer(await call("encrypt", { algorithm: algorithm(alg), key: keyRef(key), data: bytes(data) }));
    }
    async decrypt(alg: unknown, key: unknown, data: unknown) {
      return buffer(await call("decrypt", { algorithm: algorithm(alg), key: keyRef(key), data: bytes(data) }));
    }
    async deriveBits(alg: unknown, key: unknown, length?: unknown) {
      return buffer(await call("deriveBits", { algorithm: algorithm(alg), key: keyRef(key), length: length ?? null }));
    }
    async deriveKey(alg: unknown, key: unknown, derived: unknown, extractable: unknown, usages: Iterable<string>) {
      return keyFrom(
        await call("deriveKey", {
          algorithm: algorithm(alg),
          key: keyRef(key),
          derivedKeyType: algorithm(derived),
          extractable: !!extractable,
          usages: [...usages],
        }),
      );
    }
    async generateKey(alg: unknown, extractable: unknown, usages: Iterable<string>) {
      return keyOrPair(
        await call("generateKey", { algorithm: algorithm(alg), extractable: !!extractable, usages: [...usages] }),
      );
    }
    async wrapKey(format: unknown, key: unknown, wrappingKey: unknown, alg: unknown) {
      return buffer(
        await call("wrapKey", {
          format,
          key: keyRef(key),
          wrappingKey: keyRef(wrappingKey),
          algorithm: algorithm(alg),
        }),
      );
    }
    async unwrapKey(
      format: unknown,
      wrapped: unknown,
      unwrappingKey: unknown,
      alg: unknown,
      unwrappedAlg: unknown,
      extractable: unknown,
      usages: Iterable<string>,
    ) {
      return keyFrom(
        await call("unwrapKey", {
          format,
          wrappedKey: bytes(wrapped, "the wrapped key"),
          unwrappingKey: keyRef(unwrappingKey),
          algorithm: algorithm(alg),
          unwrappedKeyAlgorithm: algorithm(unwrappedAlg),
          extractable: !!extractable,
          usages: [...usages],
        }),
      );
    }
  }
  defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });

  const g = globalThis as Record<string, unknown>;
  defineProperty(CryptoKey, "name", { value: "CryptoKey" }); // the prelude is minified
  defineProperty(SubtleCrypto, "name", { value: "SubtleCrypto" });
  g.CryptoKey = CryptoKey;
  g.SubtleCrypto = SubtleCrypto;
  constructing = true;
  const subtle = new SubtleCrypto();
  constructing = false;
  return subtle;
}
