/**
 * The checks of the ops the sandbox forwards to `ForwardedCalls`, made from their fields in the
 * one table (op-table.ts). Each op keeps only the keys it knows, each of the right type; the
 * runtime validates the rest (payload schema, secret names, preference kinds).
 */
import type { z } from "zod";
import { MAX_LOG_CHARS } from "../limits.js";
import { BRIDGE_OPS, type ForwardedOp } from "./op-table.js";

interface Field {
  key: string;
  schema: z.ZodType;
  /** Left out when missing (an optional field, or one where any value goes). */
  optional: boolean;
  /**
   * `null` is a value here (setPreference(name, null) clears; respond(id, null) answers null); elsewhere it counts as
   * missing.
   */
  keepsNull: boolean;
}

/** Each forwarded op's fields, in the table's order (the first bad one is the one named). */
const FIELDS = new Map<string, Field[]>(
  Object.entries(BRIDGE_OPS).flatMap(([op, spec]) =>
    "fields" in spec
      ? [
          [
            op,
            Object.entries(spec.fields as Record<string, z.ZodType>).map(([key, schema]) => ({
              key,
              schema,
              optional: schema.safeParse(undefined).success,
              keepsNull: schema.safeParse(null).success,
            })),
          ],
        ]
      : [],
  ),
);

/** True for the ops `ForwardedCalls.forward` serves. */
export function isForwardedOp(op: string): op is ForwardedOp {
  return FIELDS.has(op);
}

/**
 * The checked copy of a forwarded op's arguments; throws a TypeError naming the bad field.
 *
 * @example checkForwardedArgs("remove", { key: "build", extra: 1 }) // { key: "build" }
 */
export function checkForwardedArgs(op: ForwardedOp, raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError(`${op}: the arguments should be an object`);
  }
  const input = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { key, schema, optional, keepsNull } of FIELDS.get(op)!) {
    const value = input[key];
    if (value === undefined || (value === null && !keepsNull)) {
      if (optional) continue;
      throw new TypeError(`${op}: "${key}" is required`);
    }
    const checked = schema.safeParse(value);
    if (!checked.success) throw new TypeError(`${op}: "${key}" should be ${checked.error.issues[0].message}`);
    out[key] = checked.data;
  }
  if (op === "log") out.message = cutLogMessage(out.message as string);
  return out;
}

/**
 * A log message cut to MAX_LOG_CHARS, ending with how much was cut (the prelude's console uses
 * the same rule, so a guest-cut message passes unchanged).
 *
 * @example cutLogMessage("x".repeat(9000)).endsWith("… (848 more characters)") // true
 */
export function cutLogMessage(message: string): string {
  if (message.length <= MAX_LOG_CHARS) return message;
  const keep = MAX_LOG_CHARS - 40;
  return `${message.slice(0, keep)}… (${message.length - keep} more characters)`;
}
