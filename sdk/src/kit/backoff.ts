/**
 * Waiting politely on a busy or rate-limited service. Both helpers answer in seconds, the unit
 * of `update()`'s `nextRunAfter` and of the `Retry-After` header, so their answer can be
 * returned from `update()` as it is.
 */
import { MILLISECONDS_FROM } from "../builders/instant.js";

export interface BackoffOptions {
  /** Wait after the first failure, in seconds. Default 10 (the shortest interval a manifest may ask for). */
  base?: number;
  /** Longest wait, in seconds. Default 3600. */
  max?: number;
  /** Source of randomness in [0, 1); pass a fixed function in tests. Default `Math.random`. */
  random?: () => number;
}

/**
 * Seconds to wait before trying again after `attempt` failures in a row (0 for the first):
 * the wait doubles each time up to `max`, and a random half of it is jitter, so many
 * extensions failing together do not come back in step.
 *
 * @example
 * // in update(): count failures in storage, and come back later
 * const failures = ((await ctx.storage.get<number>("failures")) ?? 0);
 * return { nextRunAfter: waitForReset(res) ?? backoff(failures) };
 */
export function backoff(attempt: number, options: BackoffOptions = {}): number {
  const { base = 10, max = 3600, random = Math.random } = options;
  const tries = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  // 2 ** 1024 is Infinity; the cap takes over long before that.
  const ceiling = Math.min(max, base * 2 ** Math.min(tries, 1023));
  const jitter = Math.min(Math.max(random(), 0), 1);
  return Math.max(1, Math.ceil(ceiling / 2 + (ceiling / 2) * jitter));
}

/** Anything response headers come in: a fetch `Headers`, a `Response`, or a plain object. */
export type HeaderSource =
  | { get(name: string): string | null | undefined }
  | { headers: { get(name: string): string | null | undefined } }
  | Record<string, string | string[] | undefined>;

/** Below this a rate-limit reset number is seconds from now; from it up, an epoch time. */
const EPOCH_FROM = 1e9;

/**
 * Seconds until a rate-limited service takes calls again, read from the response headers,
 * or undefined when they say nothing (then fall back to {@link backoff}).
 *
 * Read, in order: `Retry-After` (seconds or an HTTP date); then, when the remaining allowance
 * is 0 or not given, `RateLimit-Reset`, `X-RateLimit-Reset` or `X-Rate-Limit-Reset` (seconds
 * from now below 1e9, else an epoch time in seconds or milliseconds). A reset with calls
 * still remaining means there is no need to wait: undefined.
 *
 * @example
 * const res = await fetch(url);
 * if (res.status === 429) return { nextRunAfter: waitForReset(res) ?? backoff(failures) };
 */
export function waitForReset(source: HeaderSource, now: number = Date.now()): number | undefined {
  const header = headerReader(source);

  const retryAfter = header("retry-after");
  if (retryAfter !== undefined) {
    const seconds = /^\d+(\.\d+)?$/.test(retryAfter) ? Number(retryAfter) : (Date.parse(retryAfter) - now) / 1000;
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  }

  const remaining =
    header("ratelimit-remaining") ?? header("x-ratelimit-remaining") ?? header("x-rate-limit-remaining");
  if (remaining !== undefined && Number(remaining) > 0) return undefined;

  const reset = header("ratelimit-reset") ?? header("x-ratelimit-reset") ?? header("x-rate-limit-reset");
  if (reset === undefined || !/^\d+(\.\d+)?$/.test(reset)) return undefined;
  const value = Number(reset);
  if (value < EPOCH_FROM) return Math.ceil(value);
  const resetMs = value >= MILLISECONDS_FROM ? value : value * 1000;
  return Math.max(0, Math.ceil((resetMs - now) / 1000));
}

/** A case-insensitive, trimmed header lookup over any {@link HeaderSource}; empty values read as missing. */
function headerReader(source: HeaderSource): (name: string) => string | undefined {
  const clean = (value: unknown): string | undefined => {
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === "string" && text.trim() !== "" ? text.trim() : undefined;
  };
  type Getter = { get?: unknown; headers?: { get?: unknown } };
  const loose = source as Getter;
  const getter =
    typeof loose.get === "function" ? loose : typeof loose.headers?.get === "function" ? loose.headers : undefined;
  if (getter) {
    const get = getter.get as (name: string) => unknown;
    return (name) => clean(get.call(getter, name));
  }
  const record = source as Record<string, unknown>;
  const byLowerName = new Map(Object.keys(record).map((key) => [key.toLowerCase(), record[key]]));
  return (name) => clean(byLowerName.get(name));
}
