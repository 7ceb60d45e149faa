/**
 * Ops the sandbox serves itself (BRIDGE.md): timers, the WHATWG URL parser, random bytes and the
 * refusal of `require`. Stateful ones (timers) live in the sandbox; these are the pure parts.
 */
import { randomBytes } from "node:crypto";
import type { UrlRecord } from "./url-record.js";

const URL_PARTS = new Set([
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
]);
const MAX_URL_CHARS = 64 * 1024;
const MAX_RANDOM_BYTES = 65536;

function urlRecord(url: URL): UrlRecord {
  const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = url;
  return { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash };
}

function object(op: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new TypeError(`${op}: the arguments should be an object`);
  return raw as Record<string, unknown>;
}

function string(op: string, args: Record<string, unknown>, key: string, max = MAX_URL_CHARS): string {
  const value = args[key];
  if (typeof value !== "string") throw new TypeError(`${op}: "${key}" should be a string`);
  if (value.length > max) throw new RangeError(`${op}: "${key}" is over ${max} characters`);
  return value;
}

/**
 * `url.parse {input, base?}` → the URL's parts, or null when it does not parse.
 *
 * @example parseUrl({ input: "/a?b=1", base: "https://x.test" }).href // "https://x.test/a?b=1"
 */
export function parseUrl(raw: unknown): UrlRecord | null {
  const args = object("url.parse", raw);
  const input = string("url.parse", args, "input");
  const base = args.base === undefined ? undefined : string("url.parse", args, "base");
  try {
    return urlRecord(new URL(input, base));
  } catch {
    return null;
  }
}

/** `url.set {href, part, value}` → the parts after applying one WHATWG setter. */
export function setUrlPart(raw: unknown): UrlRecord {
  const args = object("url.set", raw);
  const url = new URL(string("url.set", args, "href"));
  const part = string("url.set", args, "part");
  if (!URL_PARTS.has(part)) throw new TypeError(`url.set: "${part}" is not a URL part`);
  (url as unknown as Record<string, string>)[part] = string("url.set", args, "value");
  return urlRecord(url);
}

/** `crypto.random {n}` → n random bytes (n ≤ 65536) as base64. */
export function randomBase64(raw: unknown): string {
  const n = object("crypto.random", raw).n;
  if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > MAX_RANDOM_BYTES) {
    throw new RangeError(`crypto.random: "n" should be an integer from 0 to ${MAX_RANDOM_BYTES}`);
  }
  return randomBytes(n as number).toString("base64");
}

/** `module.require {name}` → the module name asked for (the sandbox refuses it). */
export function requiredName(raw: unknown): string {
  return string("module.require", object("module.require", raw), "name", 1024);
}

/** `timer.sleep {id, ms}` → the checked timer id and delay. */
export function timerArgs(raw: unknown, op: "timer.sleep" | "timer.cancel"): { id: number; ms: number } {
  const args = object(op, raw);
  if (!Number.isSafeInteger(args.id)) throw new TypeError(`${op}: "id" should be an integer`);
  if (op === "timer.cancel") return { id: args.id as number, ms: 0 };
  const ms = args.ms;
  if (typeof ms !== "number" || !(ms >= 0) || ms > 2_147_483_647) {
    throw new RangeError(`${op}: "ms" should be a number from 0 to 2147483647`);
  }
  return { id: args.id as number, ms };
}
