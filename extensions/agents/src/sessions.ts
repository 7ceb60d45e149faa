/**
 * The sessions svc has heard of, kept in `ctx.storage`, and the blip each one shows. Pure
 * functions of the book and the clock, so the rules are tested without a sandbox.
 */
import { clip, joinLine, session } from "@svc/api";
import { AGENT_NAMES, type Agent, type AgentEvent } from "./agent-events.js";

export type SessionState = "running" | "waiting" | "done";

/** A tool call held open for the person's answer (the hook waits on svc-hook `--wait`). */
export interface PendingApproval {
  replyId: string;
  tool: string;
  detail?: string;
  /** ISO: when the hook's wait runs out and the agent asks by itself */
  until: string;
}

export interface AgentSession {
  agent: Agent;
  sessionId: string;
  cwd?: string;
  state: SessionState;
  step: string;
  startedAt: string;
  /** ISO: the last event heard */
  heardAt: string;
  pending: PendingApproval[];
}

export type Book = Record<string, AgentSession>;

/** At most this many sessions are shown; the longest quiet ones go first (64 blips is the cap). */
export const MAX_SESSIONS = 12;
/** A session not heard from for this long is taken away (the agent was closed without SessionEnd). */
export const FORGET_AFTER_MS = 2 * 60 * 60 * 1000;

/** A blip key from the agent and its session id (keys are 1–128 characters). */
export function sessionKey(agent: Agent, sessionId: string): string {
  return `${agent}-${sessionId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100)}`;
}

const folderOf = (cwd: string | undefined): string | undefined =>
  cwd
    ?.replace(/[/\\]+$/, "")
    .split(/[/\\]/)
    .pop() || undefined;

function toolLine(tool: string | undefined, detail: string | undefined): string {
  return joinLine([tool, detail ? clip(detail, 60) : undefined], ": ") || "a tool";
}

/**
 * The book after one event. `replyId` and `waitSeconds` make a tool event an approval.
 *
 * @example
 * applyEvent({}, { agent: "claude", sessionId: "s1", kind: "start", cwd: "/code/web" }, now)
 */
export function applyEvent(
  book: Book,
  event: AgentEvent,
  now: number,
  held?: { replyId: string; waitSeconds: number },
): Book {
  const key = sessionKey(event.agent, event.sessionId);
  const at = new Date(now).toISOString();
  const before: AgentSession = book[key] ?? {
    agent: event.agent,
    sessionId: event.sessionId,
    state: "running",
    step: "Started",
    startedAt: at,
    heardAt: at,
    pending: [],
  };
  const next: AgentSession = {
    ...before,
    cwd: event.cwd ?? before.cwd,
    heardAt: at,
    pending: before.pending.filter((p) => Date.parse(p.until) > now),
  };
  switch (event.kind) {
    case "start":
      Object.assign(next, { state: "running", step: "Started" });
      break;
    case "prompt":
      Object.assign(next, {
        state: "running",
        step: event.detail ? `Working on: ${clip(event.detail, 60)}` : "Working",
      });
      break;
    case "tool":
      if (held) {
        next.pending = [
          ...next.pending,
          {
            replyId: held.replyId,
            tool: event.tool ?? "a tool",
            ...(event.detail ? { detail: event.detail } : {}),
            until: new Date(now + held.waitSeconds * 1000).toISOString(),
          },
        ];
      } else {
        Object.assign(next, { state: "running", step: `Using ${toolLine(event.tool, event.detail)}` });
      }
      break;
    case "used":
      // The call ran: whatever waited for it was answered somewhere.
      next.pending = next.pending.filter((p) => p.tool !== event.tool);
      Object.assign(next, { state: "running", step: `Used ${toolLine(event.tool, event.detail)}` });
      break;
    case "waiting":
      // The agent now asks in its own terminal: the notch's buttons would answer nothing.
      next.pending = [];
      Object.assign(next, { state: "waiting", step: event.detail ? clip(event.detail, 80) : "Waiting for you" });
      break;
    case "done":
      next.pending = [];
      Object.assign(next, { state: "done", step: event.detail ? `Done: ${clip(event.detail, 60)}` : "Done" });
      break;
    case "end":
      next.pending = [];
      Object.assign(next, { state: "done", step: "Session ended" });
      break;
  }
  return { ...book, [key]: next };
}

/** Approvals whose wait ran out are dropped; sessions quiet past `FORGET_AFTER_MS` go. */
export function prune(book: Book, now: number): { book: Book; forgotten: string[] } {
  const kept: Book = {};
  const forgotten: string[] = [];
  const newest = Object.entries(book).sort(([, a], [, b]) => Date.parse(b.heardAt) - Date.parse(a.heardAt));
  for (const [key, entry] of newest) {
    if (now - Date.parse(entry.heardAt) > FORGET_AFTER_MS || Object.keys(kept).length >= MAX_SESSIONS) {
      forgotten.push(key);
      continue;
    }
    kept[key] = { ...entry, pending: entry.pending.filter((p) => Date.parse(p.until) > now) };
  }
  return { book: kept, forgotten };
}

export const APPROVE = { id: "approve", title: "Approve", icon: "checkmark", role: "primary" } as const;
export const DENY = { id: "deny", title: "Deny", icon: "xmark", role: "destructive" } as const;

/** The blip of one session: the first pending approval, with its buttons, comes first. */
export function sessionBlip(key: string, entry: AgentSession): ReturnType<typeof session> {
  const [asking] = entry.pending;
  const title = joinLine([AGENT_NAMES[entry.agent], folderOf(entry.cwd)]);
  const state = asking || entry.state === "waiting" ? "waiting" : entry.state === "done" ? "success" : "running";
  const step = asking
    ? `Wants to use ${toolLine(asking.tool, asking.detail)}${entry.pending.length > 1 ? ` (+${entry.pending.length - 1} more)` : ""}`
    : entry.step;
  return session(key, {
    title,
    subtitle: entry.cwd,
    icon: asking ? "hand.raised" : entry.state === "done" ? "checkmark.circle" : "sparkles",
    state,
    startedAt: entry.startedAt,
    step,
    ...(asking ? { actions: [APPROVE, DENY] } : {}),
  });
}
