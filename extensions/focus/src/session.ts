/**
 * The focus session as plain data, and the moves between its phases. Pure, so the same rules
 * hold in `update()` (the session ran out) and in `onAction()` (a button was pressed).
 */

export type Phase = "ready" | "running" | "paused";

export interface Session {
  phase: Phase;
  /** Epoch ms the running session ends. */
  endsAt?: number;
  /** Epoch ms the running session (or its latest stretch after a pause) started. */
  startedAt?: number;
  /** What was left when paused, ms. */
  leftMs?: number;
  /** Sessions finished today, and which day that is (YYYY-MM-DD). */
  done: number;
  day: string;
}

export const READY: Session = { phase: "ready", done: 0, day: "" };

function today(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The session with the day's count reset when the day changed. */
export function forToday(session: Session, now: number): Session {
  return session.day === today(now) ? session : { ...session, day: today(now), done: 0 };
}

/** Applies a button. Unknown actions and ones that make no sense in the phase change nothing. */
export function act(session: Session, action: string, now: number, lengthMs: number): Session {
  const current = forToday(session, now);
  switch (action) {
    case "start":
      if (current.phase === "running") return current;
      if (current.phase === "paused")
        return {
          ...current,
          phase: "running",
          startedAt: now,
          endsAt: now + (current.leftMs ?? lengthMs),
          leftMs: undefined,
        };
      return { ...current, phase: "running", startedAt: now, endsAt: now + lengthMs };
    case "pause":
      if (current.phase !== "running") return current;
      return {
        ...current,
        phase: "paused",
        leftMs: Math.max(0, (current.endsAt ?? now) - now),
        endsAt: undefined,
        startedAt: undefined,
      };
    case "stop":
      return { phase: "ready", done: current.done, day: current.day };
    default:
      return current;
  }
}

/** A running session whose time is up becomes ready again, one more done. */
export function finishIfDue(session: Session, now: number): { session: Session; finished: boolean } {
  if (session.phase !== "running" || (session.endsAt ?? Infinity) > now) return { session, finished: false };
  const current = forToday(session, now);
  return { session: { phase: "ready", done: current.done + 1, day: current.day }, finished: true };
}
