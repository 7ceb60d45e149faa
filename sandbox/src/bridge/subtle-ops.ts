/**
 * The Node half of the guest's `crypto.subtle` (guest/subtle.ts): Node's WebCrypto does the
 * work; keys stay here, per sandbox, and the guest holds only their numbers. A number means a
 * key only in the sandbox that made it (each sandbox has its own table, dropped with it), and
 * key bytes leave only through `exportKey` of an extractable key, as WebCrypto allows.
 *
 * One async op, `crypto.subtle {method, …}` (BRIDGE.md). Bytes cross as base64; a key as
 * `{key: number}`. Costly requests are bounded: PBKDF2 iterations, RSA modulus length, derived
 * lengths, keys kept and operations in flight per sandbox.
 */
import { webcrypto } from "node:crypto";

type CryptoKey = webcrypto.CryptoKey;
const subtle = webcrypto.subtle;

/** Keys one sandbox may hold at once. */
export const MAX_KEYS = 1000;
/** Operations of one sandbox running at once (each may occupy one of libuv's worker threads). */
export const MAX_SUBTLE_IN_FLIGHT = 8;
/** PBKDF2 iterations, at most (OWASP asks 600,000 for SHA-256). */
export const MAX_PBKDF2_ITERATIONS = 2_000_000;
/** RSA modulus length in bits, at most. */
export const MAX_RSA_BITS = 8192;
/** Bits asked of deriveBits, at most. */
const MAX_DERIVED_BITS = 8192 * 8;

const METHODS = new Set([
  "digest",
  "importKey",
  "exportKey",
  "sign",
  "verify",
  "encrypt",
  "decrypt",
  "deriveBits",
  "deriveKey",
  "generateKey",
  "wrapKey",
  "unwrapKey",
]);
const FORMATS = new Set(["raw", "jwk", "spki", "pkcs8"]);
const USAGES = new Set(["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"]);
/** Algorithm members that hold bytes, and the one that holds a key (ECDH's `public`). */
const BYTE_MEMBERS = new Set(["iv", "counter", "additionalData", "salt", "info", "label", "publicExponent", "context"]);
const SCALAR_MEMBERS = new Set([
  "name",
  "length",
  "namedCurve",
  "modulusLength",
  "iterations",
  "saltLength",
  "tagLength",
]);

/** What the guest learns of a key: its number and its public attributes. */
export interface KeyRecord {
  key: number;
  type: string;
  extractable: boolean;
  algorithm: Record<string, unknown>;
  usages: string[];
}

/**
 * @example
 * const subtleOps = new SubtleOps();
 * await subtleOps.run({ method: "digest", algorithm: "SHA-256", data: "aGk=" }) // { bytes: "j0NDRmSPa5bfid2pAcUlaxmkG5kmrMFgwg4bpHnCsrU=" }
 */
export class SubtleOps {
  private readonly keys = new Map<number, CryptoKey>();
  private nextKey = 1;
  private inFlight = 0;

  /** Serves one `crypto.subtle` call. */
  async run(raw: unknown): Promise<unknown> {
    const args = record(raw, "the arguments");
    const method = args.method;
    if (typeof method !== "string" || !METHODS.has(method))
      throw new TypeError(`crypto.subtle: "${String(method)}" is not a method`);
    if (this.inFlight >= MAX_SUBTLE_IN_FLIGHT) {
      throw new RangeError(
        `crypto.subtle: ${MAX_SUBTLE_IN_FLIGHT} operations are already running in this extension; wait for one`,
      );
    }
    this.inFlight++;
    try {
      return await this.serve(method, args);
    } finally {
      this.inFlight--;
    }
  }

  /** Drops every key (the sandbox is going away). */
  clear(): void {
    this.keys.clear();
  }

  get keyCount(): number {
    return this.keys.size;
  }

  private async serve(method: string, args: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "digest":
        return bytesOut(await subtle.digest(this.algorithm(args.algorithm), bytesIn(args.data)));
      case "importKey": {
        const format = formatOf(args.format);
        const data = format === "jwk" ? jwkIn(args.keyData) : bytesIn(args.keyData);
        const key = await subtle.importKey(
          format as "raw",
          data as Uint8Array,
          this.algorithm(args.algorithm),
          extractableOf(args.extractable),
          usagesOf(args.usages),
        );
        return this.keep(key);
      }
      case "exportKey": {
        const exported = await subtle.exportKey(formatOf(args.format) as "raw", this.keyOf(args.key));
        return exported instanceof ArrayBuffer ? bytesOut(exported) : { jwk: exported };
      }
      case "sign":
        return bytesOut(await subtle.sign(this.algorithm(args.algorithm), this.keyOf(args.key), bytesIn(args.data)));
      case "verify":
        return subtle.verify(
          this.algorithm(args.algorithm),
          this.keyOf(args.key),
          bytesIn(args.signature),
          bytesIn(args.data),
        );
      case "encrypt":
        return bytesOut(await subtle.encrypt(this.algorithm(args.algorithm), this.keyOf(args.key), bytesIn(args.data)));
      case "decrypt":
        return bytesOut(await subtle.decrypt(this.algorithm(args.algorithm), this.keyOf(args.key), bytesIn(args.data)));
      case "deriveBits": {
        const length = args.length === null || args.length === undefined ? null : bitsOf(args.length);
        return bytesOut(
          await subtle.deriveBits(this.algorithm(args.algorithm), this.keyOf(args.key), length as number),
        );
      }
      case "deriveKey": {
        const key = await subtle.deriveKey(
          this.algorithm(args.algorithm),
          this.keyOf(args.key),
          this.algorithm(args.derivedKeyType),
          extractableOf(args.extractable),
          usagesOf(args.usages),
        );
        return this.keep(key);
      }
      case "generateKey": {
        const made = await subtle.generateKey(
          this.algorithm(args.algorithm),
          extractableOf(args.extractable),
          usagesOf(args.usages),
        );
        if ("privateKey" in made) {
          this.room(2);
          return { publicKey: this.keep(made.publicKey), privateKey: this.keep(made.privateKey) };
        }
        return this.keep(made as CryptoKey);
      }
      case "wrapKey": {
        const wrapped = await subtle.wrapKey(
          formatOf(args.format) as "raw",
          this.keyOf(args.key),
          this.keyOf(args.wrappingKey),
          this.algorithm(args.algorithm),
        );
        return bytesOut(wrapped);
      }
      default: {
        const key = await subtle.unwrapKey(
          formatOf(args.format) as "raw",
          bytesIn(args.wrappedKey),
          this.keyOf(args.unwrappingKey),
          this.algorithm(args.algorithm),
          this.algorithm(args.unwrappedKeyAlgorithm),
          extractableOf(args.extractable),
          usagesOf(args.usages),
        );
        return this.keep(key);
      }
    }
  }

  /** An algorithm from the guest: a name, or an object of known members with bytes, keys and hashes decoded. */
  private algorithm(raw: unknown): webcrypto.AlgorithmIdentifier & Record<string, unknown> {
    if (typeof raw === "string") return { name: raw };
    const given = record(raw, "the algorithm");
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(given)) {
      if (SCALAR_MEMBERS.has(name)) out[name] = scalar(name, value);
      else if (BYTE_MEMBERS.has(name)) out[name] = bytesIn(value);
      else if (name === "hash")
        out.hash = typeof value === "string" ? value : { name: scalar("hash", record(value, "the hash").name) };
      else if (name === "public") out.public = this.keyOf(value);
    }
    if (typeof out.name !== "string") throw new TypeError("crypto.subtle: the algorithm needs a name");
    if (typeof out.iterations === "number" && out.iterations > MAX_PBKDF2_ITERATIONS) {
      throw new RangeError(
        `crypto.subtle: ${out.iterations} PBKDF2 iterations, over the limit of ${MAX_PBKDF2_ITERATIONS}`,
      );
    }
    if (typeof out.modulusLength === "number" && out.modulusLength > MAX_RSA_BITS) {
      throw new RangeError(
        `crypto.subtle: an RSA modulus of ${out.modulusLength} bits, over the limit of ${MAX_RSA_BITS}`,
      );
    }
    if (typeof out.length === "number") bitsOf(out.length);
    return out as webcrypto.AlgorithmIdentifier & Record<string, unknown>;
  }

  private keyOf(raw: unknown): CryptoKey {
    const number = typeof raw === "object" && raw !== null ? (raw as { key?: unknown }).key : undefined;
    const key = typeof number === "number" ? this.keys.get(number) : undefined;
    if (!key) throw new TypeError("crypto.subtle: not a CryptoKey of this extension");
    return key;
  }

  private room(count: number): void {
    if (this.keys.size + count > MAX_KEYS)
      throw new RangeError(`crypto.subtle: this extension holds ${MAX_KEYS} keys, the limit`);
  }

  private keep(key: CryptoKey): KeyRecord {
    this.room(1);
    const number = this.nextKey++;
    this.keys.set(number, key);
    return {
      key: number,
      type: key.type,
      extractable: key.extractable,
      algorithm: algorithmOut(key.algorithm),
      usages: [...key.usages],
    };
  }
}

function record(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new TypeError(`crypto.subtle: ${what} should be an object`);
  return raw as Record<string, unknown>;
}

function scalar(name: string, value: unknown): string | number {
  if (typeof value === "string" && value.length <= 64) return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw new TypeError(`crypto.subtle: algorithm member "${name}" should be a short string or a number`);
}

function bitsOf(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_DERIVED_BITS) {
    throw new RangeError(`crypto.subtle: a length should be a whole number of bits from 0 to ${MAX_DERIVED_BITS}`);
  }
  return value;
}

function formatOf(value: unknown): string {
  if (typeof value !== "string" || !FORMATS.has(value))
    throw new TypeError(`crypto.subtle: "${String(value)}" is not a key format (raw, jwk, spki, pkcs8)`);
  return value;
}

function extractableOf(value: unknown): boolean {
  return value === true;
}

function usagesOf(value: unknown): webcrypto.KeyUsage[] {
  if (!Array.isArray(value) || !value.every((usage) => typeof usage === "string" && USAGES.has(usage))) {
    throw new TypeError(
      "crypto.subtle: key usages should be a list of encrypt, decrypt, sign, verify, deriveKey, deriveBits, wrapKey, unwrapKey",
    );
  }
  return value as webcrypto.KeyUsage[];
}

/** Bytes from the guest: base64 text (the guest's native encoder made it). */
function bytesIn(value: unknown): Uint8Array {
  if (typeof value !== "string") throw new TypeError("crypto.subtle: expected bytes (an ArrayBuffer or a view of one)");
  return Buffer.from(value, "base64");
}

function bytesOut(buffer: ArrayBuffer): { bytes: string } {
  return { bytes: Buffer.from(buffer).toString("base64") };
}

/** A JWK: a plain object of strings, booleans and lists of strings (key_ops, x5c). */
function jwkIn(value: unknown): webcrypto.JsonWebKey {
  const jwk = record(value, "a JWK");
  for (const [name, member] of Object.entries(jwk)) {
    const ok =
      typeof member === "string" ||
      typeof member === "boolean" ||
      (Array.isArray(member) && member.every((item) => typeof item === "string"));
    if (!ok)
      throw new TypeError(`crypto.subtle: JWK member "${name}" should be a string, a boolean or a list of strings`);
  }
  return jwk as webcrypto.JsonWebKey;
}

/** A key's algorithm as plain JSON (publicExponent as base64 bytes). */
function algorithmOut(algorithm: webcrypto.KeyAlgorithm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(algorithm)) {
    if (value instanceof Uint8Array) out[name] = { bytes: Buffer.from(value).toString("base64") };
    else if (typeof value === "object" && value !== null) out[name] = { ...value };
    else out[name] = value;
  }
  return out;
}
