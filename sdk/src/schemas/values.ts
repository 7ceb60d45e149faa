/**
 * Typed values: numbers, money, percentages, durations, dates and text that the app formats for
 * the viewer's locale. A typed value is `{type, value}`; wherever one is accepted (facts, list
 * items, table rows, stat values, meters) a bare string (text) or a bare number (number) is
 * accepted too — that union is a {@link DisplayValue}.
 */
import { z } from "zod";
import { isoDateSchema } from "./text.js";

const finite = z.number().refine(Number.isFinite, { error: "should be a finite number" });

/**
 * A plain number, with an optional unit shown after it.
 *
 * @example
 * { type: "number", value: 1284, unit: "req/s" }
 */
export const numberValueSchema = z.object({
  type: z.literal("number"),
  value: finite,
  unit: z.string().optional(),
});

/**
 * Money: `value.amount` in major units (euros, not cents) and an ISO 4217 currency code.
 *
 * @example
 * { type: "currency", value: { amount: 1250.5, currency: "EUR" } }
 */
export const currencyValueSchema = z.object({
  type: z.literal("currency"),
  value: z.object({
    amount: finite,
    currency: z.string().regex(/^[A-Z]{3}$/, { error: "should be a three-letter currency code, like EUR" }),
  }),
});

/**
 * A percentage, given as a fraction: `0.42` shows as 42 %. Values past 1 (growth) are allowed.
 *
 * @example
 * { type: "percent", value: 0.42 }
 */
export const percentValueSchema = z.object({
  type: z.literal("percent"),
  value: finite,
});

/**
 * A length of time in seconds, shown as "3 h 12 min" or "45 s".
 *
 * @example
 * { type: "duration", value: 11520 }
 */
export const durationValueSchema = z.object({
  type: z.literal("duration"),
  value: finite.refine((n) => n >= 0, { error: "should be at least 0" }),
});

/**
 * A moment, as an ISO 8601 string; shown relative to now ("in 5 min", "2 h ago").
 * The `date` helper turns Date objects and epoch numbers into this form.
 *
 * @example
 * { type: "date", value: "2025-03-01T09:30:00.000Z" }
 */
export const dateValueSchema = z.object({
  type: z.literal("date"),
  value: isoDateSchema,
});

/**
 * Text shown as it is. A result block `{type: "text", value}` has exactly this shape.
 *
 * @example
 * { type: "text", value: "main · 3 commits ahead" }
 */
export const textValueSchema = z.object({
  type: z.literal("text"),
  value: z.string(),
});

/** The `type` of a typed value. */
export const VALUE_TYPES = ["number", "currency", "percent", "duration", "date", "text"] as const;

/** Any typed value, told apart by `type`. */
export const typedValueSchema = z.discriminatedUnion("type", [
  numberValueSchema,
  currencyValueSchema,
  percentValueSchema,
  durationValueSchema,
  dateValueSchema,
  textValueSchema,
]);

/**
 * What a value slot accepts: a typed value, a bare string (text) or a bare finite number.
 *
 * @example
 * "3 open" // or 42, or { type: "percent", value: 0.5 }
 */
export const displayValueSchema = z.union([typedValueSchema, z.string(), finite]);

export type NumberValue = z.infer<typeof numberValueSchema>;
export type CurrencyValue = z.infer<typeof currencyValueSchema>;
export type PercentValue = z.infer<typeof percentValueSchema>;
export type DurationValue = z.infer<typeof durationValueSchema>;
export type DateValue = z.infer<typeof dateValueSchema>;
export type TextValue = z.infer<typeof textValueSchema>;
export type TypedValue = z.infer<typeof typedValueSchema>;
export type ValueType = TypedValue["type"];
export type DisplayValue = z.infer<typeof displayValueSchema>;
