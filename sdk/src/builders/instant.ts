/**
 * One reading of "a moment in time" for every helper that takes one (the `date` value, the
 * kit's `staleAfter`, `age`, `timeLeft` …), so an author can hand over whatever their API gave
 * them. Plain JavaScript only: this runs inside the extension's QuickJS sandbox.
 */

/** A moment: a `Date`, an ISO 8601 string, or an epoch number (seconds, or milliseconds from 1e12 up). */
export type DateInput = Date | string | number;

/**
 * Epoch numbers at or above this are milliseconds; below it, seconds. 1e12 ms is September
 * 2001, while 1e12 seconds is some 31,000 years away, so no real timestamp is ambiguous.
 */
export const MILLISECONDS_FROM = 1e12;

/** The widest span a JavaScript Date holds: ±100,000,000 days around 1970. */
const LARGEST_MS = 8.64e15;

/**
 * Reads a moment as epoch milliseconds.
 *
 * @example
 * toEpochMs(1700000000)          // 1700000000000 (seconds)
 * toEpochMs(1700000000000)       // 1700000000000 (milliseconds)
 * toEpochMs("2023-11-14T22:13:20Z")
 * @throws Error naming the value and the accepted forms when it is not a moment.
 */
export function toEpochMs(input: DateInput): number {
  let ms = NaN;
  if (input instanceof Date) ms = input.getTime();
  else if (typeof input === "number") ms = input >= MILLISECONDS_FROM ? input : input * 1000;
  else if (typeof input === "string" && input.trim() !== "") ms = Date.parse(input.trim());
  if (Number.isFinite(ms) && Math.abs(ms) <= LARGEST_MS) return ms;
  throw new Error(`${describe(input)} is not a date: pass a Date, an ISO 8601 string, or epoch seconds/milliseconds`);
}

/**
 * Reads a moment as an ISO 8601 string in UTC, the one form dates take in payloads and blocks.
 * Years outside 0–9999 have no such form, so they throw.
 *
 * @example
 * toIsoString(1700000000) // "2023-11-14T22:13:20.000Z"
 */
export function toIsoString(input: DateInput): string {
  const ms = toEpochMs(input);
  const year = new Date(ms).getUTCFullYear();
  if (year < 0 || year > 9999) {
    const reading = typeof input === "number" && input < MILLISECONDS_FROM ? " read as epoch seconds" : "";
    throw new Error(
      `${describe(input)}${reading} is the year ${year}; dates must fall in the years 0–9999 ` +
        `(epoch numbers count as milliseconds from 1e12 up)`,
    );
  }
  return new Date(ms).toISOString();
}

/** A short, safe rendering of a bad value for an error message. */
export function describe(value: unknown): string {
  if (value instanceof Date) return "an invalid Date";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
