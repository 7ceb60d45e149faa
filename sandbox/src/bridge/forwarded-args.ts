/**
 * Shape checks for the ops the sandbox forwards to `HostCalls` (types.ts `ForwardedOp`). Each op
 * keeps only the keys it knows, each of the right type; the runtime validates the rest
 * (payload schema, secret names, preference kinds).
 */
import { MAX_LOG_CHARS } from "../limits.js";
import type { ForwardedOp } from "../types.js";

type Field = "string" | "string?" | "number?" | "integer?" | "object" | "any" | "level";

const MAX_STRING = 64 * 1024;
const LEVELS = new Set(["debug", "info", "warn", "error"]);

const SHAPES: Record<ForwardedOp, Record<string, Field>> = {
  emit: { blip: "object" },
  end: { key: "string", state: "string?", dismissAfter: "number?" },
  remove: { key: "string" },
  respond: { replyId: "string", body: "any", status: "integer?" },
  log: { level: "level", message: "string" },
  openURL: { url: "string" },
  notify: { title: "string", body: "string?" },
  "secrets.get": { name: "string" },
  "secrets.set": { name: "string", value: "string" },
  "secrets.delete": { name: "string" },
  "preferences.set": { name: "string", value: "any" },
  "oauth.connect": { provider: "string?" },
  "oauth.connections": { provider: "string?" },
  "oauth.token": { provider: "string?", connection: "string?" },
  "oauth.describe": { provider: "string?", connection: "string", account: "string?", label: "string?" },
  "oauth.invalidate": { provider: "string?", connection: "string" },
  "oauth.disconnect": { provider: "string?", connection: "string?" },
  workingHours: {},
};

/** True for the ops `HostCalls.forward` serves. */
export function isForwardedOp(op: string): op is ForwardedOp {
  return Object.hasOwn(SHAPES, op);
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
  for (const [key, field] of Object.entries(SHAPES[op])) {
    const value = input[key];
    // null is a value for an "any" field (setPreference(name, null) clears; respond(id, null) answers null).
    if (value === undefined || (value === null && field !== "any")) {
      if (field.endsWith("?") || field === "any") continue;
      throw new TypeError(`${op}: "${key}" is required`);
    }
    out[key] = checkField(op, key, field, value);
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

function checkField(op: string, key: string, field: Field, value: unknown): unknown {
  const fail = (what: string) => new TypeError(`${op}: "${key}" should be ${what}`);
  switch (field) {
    case "string":
    case "string?":
      if (typeof value !== "string") throw fail("a string");
      if (value.length > MAX_STRING && op !== "log") throw fail(`at most ${MAX_STRING} characters`);
      return value;
    case "number?":
      if (typeof value !== "number" || !Number.isFinite(value)) throw fail("a finite number");
      return value;
    case "integer?":
      if (!Number.isInteger(value)) throw fail("an integer");
      return value;
    case "object":
      if (typeof value !== "object" || Array.isArray(value)) throw fail("an object");
      return value;
    case "level":
      if (typeof value !== "string" || !LEVELS.has(value)) throw fail("one of debug, info, warn, error");
      return value;
    case "any":
      return value;
  }
}
