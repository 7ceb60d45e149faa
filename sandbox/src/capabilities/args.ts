/**
 * Checks the untrusted arguments of one bridge op. The guest sent plain JSON, but nothing about
 * its shape can be assumed: every field is read through here, typed and size-checked, and a bad
 * one rejects the call with a message naming the op and the field.
 */
import { describeBytes } from "./limits.js";

/** Reads fields of one op's argument object; each reader throws a `TypeError` for a person. */
export interface ArgReader {
  string(name: string, options?: { maxLength?: number }): string;
  optionalString(name: string, options?: { maxLength?: number }): string | undefined;
  optionalInteger(name: string, min: number, max: number): number | undefined;
  optionalBoolean(name: string): boolean | undefined;
  oneOf<T extends string>(name: string, choices: readonly T[], fallback: T): T;
  stringArray(name: string, options?: { maxItems?: number }): string[];
  /** A string or a number, returned as a string: ids the guest chooses. */
  id(name: string): string;
  /** The raw value, for fields that may hold any JSON. */
  any(name: string): unknown;
}

/**
 * Starts reading `raw` as the arguments of `op`.
 * @example
 * const a = readArgs("exec", raw);
 * const file = a.string("file", { maxLength: 4096 });
 */
export function readArgs(op: string, raw: unknown): ArgReader {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError(`${op}: arguments should be an object`);
  }
  const fields = raw as Record<string, unknown>;
  const fail = (name: string, should: string): never => {
    throw new TypeError(`${op}: "${name}" should be ${should}`);
  };
  const checkString = (name: string, value: unknown, maxLength?: number): string => {
    if (typeof value !== "string") return fail(name, "a string");
    if (maxLength !== undefined && value.length > maxLength) {
      return fail(name, `at most ${maxLength} characters long`);
    }
    return value;
  };
  return {
    string: (name, options) => checkString(name, fields[name], options?.maxLength),
    optionalString(name, options) {
      const value = fields[name];
      return value === undefined || value === null ? undefined : checkString(name, value, options?.maxLength);
    },
    optionalInteger(name, min, max) {
      const value = fields[name];
      if (value === undefined || value === null) return undefined;
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        return fail(name, `an integer from ${min} to ${max}`);
      }
      return value;
    },
    optionalBoolean(name) {
      const value = fields[name];
      if (value === undefined || value === null) return undefined;
      return typeof value === "boolean" ? value : fail(name, "true or false");
    },
    oneOf(name, choices, fallback) {
      const value = fields[name];
      if (value === undefined || value === null) return fallback;
      if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
        return fail(name, `one of ${choices.map((c) => `"${c}"`).join(", ")}`);
      }
      return value as (typeof choices)[number];
    },
    stringArray(name, options) {
      const value = fields[name];
      if (!Array.isArray(value)) return fail(name, "an array of strings");
      if (options?.maxItems !== undefined && value.length > options.maxItems) {
        return fail(name, `an array of at most ${options.maxItems} strings`);
      }
      for (const item of value) if (typeof item !== "string") fail(name, "an array of strings");
      return value as string[];
    },
    id(name) {
      const value = fields[name];
      if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
      if (typeof value === "string" && value.length > 0 && value.length <= 64) return value;
      return fail(name, "a number or a string of 1 to 64 characters");
    },
    any: (name) => fields[name],
  };
}

/**
 * Decodes base64 from the guest, refusing junk and anything over `maxBytes` once decoded.
 * @example decodeBase64("fetch: request body", "aGk=", 10) // <Buffer 68 69>
 */
export function decodeBase64(label: string, text: string, maxBytes: number): Buffer {
  // Compare before decoding so an oversized string costs nothing.
  if ((text.length / 4) * 3 - 2 > maxBytes) return tooLarge(label, maxBytes);
  const bytes = Buffer.from(text, "base64");
  // Buffer.from skips junk silently; canonical base64 survives the round trip unchanged.
  if (bytes.toString("base64") !== text) throw new TypeError(`${label} should be base64`);
  return bytes.length > maxBytes ? tooLarge(label, maxBytes) : bytes;
}

function tooLarge(label: string, maxBytes: number): never {
  throw new RangeError(`${label} is over the limit of ${describeBytes(maxBytes)}`);
}
