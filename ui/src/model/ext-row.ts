/**
 * The short state on an extension's row in Settings: one or two words a person acts on, the
 * details (figures, the whole error, its stack) being one click away. First match wins:
 * off → changed on disk since it was installed (not loaded until accepted) → broken or stopped
 * by an error → a required option missing → a sign-in to renew → its last run failed → running.
 */
import type { UiExtension } from "../wire.js";

export interface RowState {
  text: string;
  tone: "muted" | "bad" | "warn" | "ok";
}

export function rowState(ext: UiExtension): RowState {
  if (!ext.enabled) return { text: "off", tone: "muted" };
  if (ext.status === "changed") return { text: "changed on disk", tone: "bad" };
  if (ext.status === "overridden") return { text: "replaced by another copy", tone: "muted" };
  if (ext.status === "broken" || ext.status === "error" || ext.status === "crashed")
    return { text: "not working", tone: "bad" };
  const missing = ext.preferences.some(
    (p) =>
      p.required &&
      (p.value === null || p.value === "" || (p.type === "password" && !(p.value as { set?: boolean })?.set)),
  );
  if (missing) return { text: "needs an option", tone: "warn" };
  if (ext.signIns.some((s) => s.connections.some((c) => c.needsReconnect)))
    return { text: "sign in again", tone: "warn" };
  if (ext.lastRun && ext.lastRun.result !== "ok") return { text: "last run failed", tone: "bad" };
  if (ext.status === "loading") return { text: "starting", tone: "muted" };
  return { text: "on", tone: "ok" };
}

/**
 * An error as the row's details show it: the first line (the message) in the open, the rest (a
 * stack, `at …` frames) behind "details".
 */
export function splitError(error: string): { message: string; more?: string } {
  // A frame on its own line ("    at update (index.js:1:9)"), or run into one line ("… at update (index.js:1:95) at …").
  const frame = /\n\s*at\s|\s+at\s+[^\s()]+\s+\([^)]*:\d+:\d+\)/.exec(error);
  if (!frame) return { message: error };
  return { message: error.slice(0, frame.index).trimEnd(), more: error.slice(frame.index).replace(/^\n/, "").trim() };
}
