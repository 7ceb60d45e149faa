/**
 * How a denial reads, and how a denial error is recognised again after a library (undici, ws)
 * has wrapped it as the `cause` of its own error.
 */
import type { Denial } from "../types.js";
import type { CapabilityContext } from "./context.js";

const LABELS: Record<Denial["kind"], string> = {
  fetch: "fetch to",
  websocket: "WebSocket to",
  exec: "exec of",
  file: "file access to",
  module: "import of",
};

/**
 * The one-line message a guest sees for a denial.
 * @example
 * formatDenial({ kind: "fetch", target: "evil.example",
 *   reason: '"evil.example" is not in permissions.network',
 *   fix: 'add "evil.example" to svc.permissions.network in package.json' })
 * // 'fetch to evil.example denied: "evil.example" is not in permissions.network (add "evil.example" to …)'
 */
export function formatDenial(denial: Omit<Denial, "at">): string {
  const fix = denial.fix ? ` (${denial.fix})` : "";
  return `${LABELS[denial.kind]} ${denial.target} denied: ${denial.reason}${fix}`;
}

const denials = new WeakSet<Error>();

/** Records the denial with the sandbox and returns the error to throw, marked for `findDenial`. */
export function deny(cx: CapabilityContext, denial: Omit<Denial, "at">): Error {
  const error = cx.deny(denial);
  denials.add(error);
  return error;
}

/** The denial error inside `error` or its `cause` chain, if any. */
export function findDenial(error: unknown): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (denials.has(e)) return e;
  }
  return undefined;
}

/** The manifest fix for a network host. */
export function networkFix(host: string): string {
  return `add "${host}" to svc.permissions.network in package.json`;
}
