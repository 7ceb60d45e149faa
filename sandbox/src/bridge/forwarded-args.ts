/**
 * The checks of the ops the sandbox forwards to `ForwardedCalls`, made from their fields in the
 * one table (op-table.ts). Each op keeps only the keys it knows, each of the right type; the
 * runtime validates the rest (payload schema, secret names, preference kinds).
 */
import { MAX_LOG_CHARS } from "../limits.js";
import type { Field } from "./forwarded-fields.js";
import { BRIDGE_OPS, type ForwardedOp } from "./op-table.js";

/** Each forwarded op's fields, in the table's order (the first bad one is the one named). */
const FIELDS = new Map<string, [key: string, field: Field<unknown>][]>(
  Object.entries(BRIDGE_OPS).flatMap(([op, spec]) =>
    "fields" in spec ? [[op, Object.entries(spec.fields as Record<string, Field<unknown>>)]] : [],
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
  for (const [key, field] of FIELDS.get(op)!) {
    const value = input[key];
    if (value === undefined || (value === null && !field.keepsNull)) {
      if (field.optional) continue;
      throw new TypeError(`${op}: "${key}" is required`);
    }
    const problem = field.problem(value);
    if (problem !== undefined) throw new TypeError(`${op}: "${key}" should be ${problem}`);
    out[key] = value;
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
