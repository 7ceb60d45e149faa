/**
 * The bytes svc signs and the digests it lists, made one way for every signed file (the content
 * manifest, the author's statements): canonical JSON (RFC 8785, the `canonicalize` package), so
 * the same value gives the same bytes on every machine, and SHA-256 in lower-case hex.
 */
import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";

// The package is CommonJS (`module.exports = serialize`) with types written as an ES default export.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/**
 * `value` as canonical JSON, UTF-8.
 *
 * @example
 * canonicalBytes({ b: 1, a: 2 }).toString() // '{"a":2,"b":1}'
 * @throws TypeError for a value JSON cannot hold (undefined, a function).
 */
export function canonicalBytes(value: unknown): Buffer {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("canonical JSON holds no undefined or function");
  return Buffer.from(text, "utf8");
}

/**
 * @example
 * sha256Hex(Buffer.from("")) // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 */
export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
