/**
 * Small string measures and shapes shared by the schemas. No Node APIs here: the SDK is inlined
 * into extension bundles that run inside a QuickJS interpreter without `Buffer` or `node:path`.
 */
import { z } from "zod";

/**
 * Bytes `s` takes as UTF-8, without encoding it. A lone surrogate counts 3 bytes, as
 * `TextEncoder` would write U+FFFD in its place.
 *
 * @example
 * utf8ByteLength("é") // 2
 */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Bytes of UTF-8 in `JSON.stringify(value)`; `Infinity` when it cannot be serialized
 * (a cycle, a BigInt), so any size limit rejects it.
 *
 * @example
 * jsonByteLength({ a: "é" }) // 10
 */
export function jsonByteLength(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : utf8ByteLength(json);
  } catch {
    return Infinity;
  }
}

/**
 * Characters as a person counts them: code points, so an emoji is one.
 *
 * @example
 * charCount("ok👍") // 3
 */
export function charCount(s: string): number {
  let count = 0;
  for (const _ of s) count++;
  return count;
}

/** A string of at most `max` characters (code points), with an error a person can read. */
export function maxChars(max: number): z.ZodString {
  return z.string().refine((s) => charCount(s) <= max, {
    error: `should be at most ${max} characters`,
    abort: true,
  });
}

/** A string that is not empty. */
export const nonEmpty = z.string().min(1, { error: "should not be empty" });

const HTTP_URL = /^https?:\/\/(?:[^@/?#\s]*@)?(\[[0-9A-Fa-f:.]+\]|[^:/?#\s@[\]]+)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/**
 * The lower-cased host of an http or https address, or `undefined` when `s` is not one.
 * Parsed by hand because the guest interpreter may lack `URL`.
 *
 * @example
 * hostOf("https://API.github.com/repos") // "api.github.com"
 */
export function hostOf(s: string): string | undefined {
  const match = HTTP_URL.exec(s);
  return match ? match[1].toLowerCase() : undefined;
}

/** True when `s` is an https address. */
export function isHttps(s: string): boolean {
  return /^https:/i.test(s) && hostOf(s) !== undefined;
}

/** An http or https address: what a link on a blip or a table row may open. */
export const httpUrlSchema = z.string().refine((s) => hostOf(s) !== undefined, {
  error: "should be an http or https address",
});

/** An https address (OAuth endpoints). */
export const httpsUrlSchema = z.string().refine(isHttps, { error: "should be an https address" });

/**
 * True for an absolute path: `/…` on macOS and Linux, `C:\…` or `\\server\…` on Windows.
 *
 * @example
 * isAbsolutePath("/tmp/out.png") // true
 */
export function isAbsolutePath(s: string): boolean {
  return s.startsWith("/") || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith("\\\\");
}

/** An absolute file path (tool result files, images, drop outputs). */
export const absolutePathSchema = z.string().refine(isAbsolutePath, {
  error: "should be an absolute path",
});

/**
 * An ISO 8601 date and time with a zone (`Z` or an offset), as `Date#toISOString` writes it.
 *
 * @example
 * "2025-03-01T09:30:00.000Z"
 */
export const isoDateSchema = z.iso.datetime({
  offset: true,
  error: "should be an ISO 8601 date and time, like 2025-03-01T09:30:00Z",
});
