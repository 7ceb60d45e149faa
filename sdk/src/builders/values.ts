/**
 * Value helpers: typed values `{type, value}` that the app formats for the viewer's locale.
 * Use them wherever a value goes (stat values and deltas, facts, list item values, meter
 * values, table rows). `text` doubles as the text result block: both are `{type: "text", value}`.
 */
import type {
  CurrencyValue,
  DateValue,
  DurationValue,
  NumberValue,
  PercentValue,
  TextValue,
} from "../schemas/index.js";
import { type DateInput, describe, toIsoString } from "./instant.js";

/**
 * A number, with an optional unit shown after it.
 *
 * @example
 * number(1284, "req/s") // { type: "number", value: 1284, unit: "req/s" }
 */
export function number(value: number, unit?: string): NumberValue {
  return unit === undefined ? { type: "number", value } : { type: "number", value, unit };
}

/**
 * Money in major units (euros, not cents) and an ISO 4217 code, upper-cased for you.
 *
 * @example
 * currency(1250.5, "eur") // { type: "currency", value: { amount: 1250.5, currency: "EUR" } }
 */
export function currency(amount: number, code = "USD"): CurrencyValue {
  return { type: "currency", value: { amount, currency: code.trim().toUpperCase() } };
}

/**
 * A percentage, stored as a fraction: `percent(0.42)` shows 42 %. Given a whole, it is
 * `part / whole` (a whole of 0 gives 0 rather than a division by zero).
 *
 * @example
 * percent(0.42)    // { type: "percent", value: 0.42 }
 * percent(42, 100) // { type: "percent", value: 0.42 }
 */
export function percent(part: number, whole?: number): PercentValue {
  if (whole === undefined) return { type: "percent", value: part };
  return { type: "percent", value: whole === 0 ? 0 : part / whole };
}

/**
 * A length of time in seconds ("3 h 12 min"). A negative span (clocks a little apart) shows
 * as 0.
 *
 * @example
 * duration(11520)                 // { type: "duration", value: 11520 }
 * duration((end - start) / 1000)  // from two epoch-millisecond times
 */
export function duration(seconds: number): DurationValue {
  // NaN passes through so the payload check names it instead of showing a silent 0.
  return { type: "duration", value: Number.isNaN(seconds) || seconds > 0 ? seconds : 0 };
}

/**
 * A moment, shown relative to now ("in 5 min", "2 h ago"). Takes a Date, an ISO 8601 string,
 * or an epoch number: seconds, or milliseconds from 1e12 up. Always stored as an ISO string in UTC.
 *
 * @example
 * date(1740821400)             // { type: "date", value: "2025-03-01T09:30:00.000Z" }
 * date(1740821400000)          // the same moment, in milliseconds
 * date("2025-03-01T10:30:00+01:00")
 * @throws Error when the input is not a moment, or falls outside the years 0–9999.
 */
export function date(input: DateInput): DateValue {
  return { type: "date", value: toIsoString(input) };
}

/**
 * Text shown as it is; also a text result block for tools, since both have this shape.
 *
 * @example
 * text("main · 3 ahead") // { type: "text", value: "main · 3 ahead" }
 * // in a tool: return [status("Done", "positive"), text("3 files renamed.")]
 */
export function text(value: string | number | boolean): TextValue {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    throw new Error(`text() takes a string, not ${describe(value)}`);
  }
  return { type: "text", value: String(value) };
}
