/**
 * Agent Sessions: coding agents' hooks call `svc-hook send app.svc.agents` (their hook input
 * as the body); each session shows as a `session` blip: running, waiting for you, done. A tool
 * call sent with `--wait` is held open: Approve or Deny on the blip answers it in the agent's
 * own words; when nobody answers in time, svc-hook prints its `--otherwise` ("ask"), and the
 * agent's own prompt decides. Nothing is ever allowed by default.
 */
import { defineExtension, stat, type Ctx } from "@svc/api";
import { readAgentEvent } from "./agent-events.js";
import { decisionReply, undecidedReply, type Decision } from "./replies.js";
import { applyEvent, prune, sessionBlip, sessionKey, type Book } from "./sessions.js";

const BOOK_KEY = "sessions";
const EMPTY_KEY = "setup";

/**
 * The book lives in this sandbox between calls (events and presses may overlap) and is saved
 * after every change, so a reload starts from what was shown.
 */
let book: Book | undefined;
/** One timer per pending approval: when its wait runs out, its buttons go. */
const expiries = new Map<string, ReturnType<typeof setTimeout>>();

async function loadBook(ctx: Ctx): Promise<Book> {
  book ??= (await ctx.storage.get<Book>(BOOK_KEY)) ?? {};
  return book;
}

function waitSeconds(ctx: Ctx): number {
  const wait = Number(ctx.preferences.wait);
  return Number.isFinite(wait) && wait >= 1 ? Math.min(wait, 600) : 50;
}

/**
 * Saves the book, takes away the forgotten sessions and shows the others: only `changed` when
 * one event changed one session (agents send an event per tool call), else all of them.
 */
async function show(ctx: Ctx, next: Book, changed?: string): Promise<void> {
  const { book: kept, forgotten } = prune(next, Date.now());
  const wasEmpty = Object.keys(book ?? {}).length === 0;
  book = kept;
  await ctx.storage.set(BOOK_KEY, kept);
  for (const key of forgotten) await ctx.remove(key);
  const keys = Object.keys(kept);
  if (keys.length === 0) {
    await ctx.emit(
      stat(EMPTY_KEY, {
        title: "Agent Sessions",
        icon: "sparkles",
        state: "idle",
        value: "No agent has called yet",
        label: "Add svc-hook to your agent's hooks (see this extension's README)",
      }),
    );
    return;
  }
  if (wasEmpty) await ctx.remove(EMPTY_KEY);
  for (const key of changed !== undefined && Object.hasOwn(kept, changed) ? [changed] : keys) {
    await ctx.emit(sessionBlip(key, kept[key]));
    for (const pending of kept[key].pending) armExpiry(ctx, pending.replyId, pending.until);
  }
}

/** When an approval's wait runs out, the blip is drawn again without its buttons. */
function armExpiry(ctx: Ctx, replyId: string, until: string): void {
  if (expiries.has(replyId)) return;
  const timer = setTimeout(
    () => {
      expiries.delete(replyId);
      void loadBook(ctx).then((current) => show(ctx, current));
    },
    Math.max(0, Date.parse(until) - Date.now()),
  );
  expiries.set(replyId, timer);
}

async function decide(ctx: Ctx, key: string, decision: Decision): Promise<void> {
  const current = await loadBook(ctx);
  const entry = current[key];
  const live = entry?.pending.filter((p) => Date.parse(p.until) > Date.now()) ?? [];
  const [asking, ...rest] = live;
  if (!entry || !asking) {
    await ctx.notify("Too late to answer here", "The agent asks in its own terminal now.");
    await show(ctx, current);
    return;
  }
  clearTimeout(expiries.get(asking.replyId));
  expiries.delete(asking.replyId);
  await ctx.respond(asking.replyId, decisionReply(entry.agent, decision));
  const verb = decision === "approve" ? "Approved" : "Denied";
  await show(
    ctx,
    {
      ...current,
      [key]: {
        ...entry,
        pending: rest,
        state: "running",
        step: `${verb}: ${asking.tool}`,
        heardAt: new Date().toISOString(),
      },
    },
    key,
  );
}

export default defineExtension({
  async update(ctx) {
    if (ctx.trigger?.type === "launch") {
      // Held requests do not outlive svc: what waited before this launch has been answered.
      const current = await loadBook(ctx);
      const cleared = Object.fromEntries(Object.entries(current).map(([k, s]) => [k, { ...s, pending: [] }]));
      await show(ctx, cleared);
      return;
    }
    await show(ctx, await loadBook(ctx));
  },

  async onEvent(ctx, event) {
    if (event.type !== "webhook") return;
    const agentEvent = readAgentEvent(event.body);
    if (!agentEvent) {
      ctx.log.warn("a webhook body that is no agent's hook input was ignored");
      if (event.replyId) await ctx.respond(event.replyId, {});
      return;
    }
    const holds = agentEvent.kind === "tool" && event.replyId !== undefined && agentEvent.agent !== "codex";
    const next = applyEvent(
      await loadBook(ctx),
      agentEvent,
      Date.parse(event.receivedAt),
      holds ? { replyId: event.replyId!, waitSeconds: waitSeconds(ctx) } : undefined,
    );
    // A sender that waits for an event svc does not decide gets an answer that decides nothing.
    if (event.replyId && !holds)
      await ctx.respond(event.replyId, agentEvent.kind === "tool" ? undecidedReply(agentEvent.agent) : {});
    await show(ctx, next, sessionKey(agentEvent.agent, agentEvent.sessionId));
  },

  async onAction(ctx, action) {
    if (action.actionId === "approve" || action.actionId === "deny") await decide(ctx, action.key, action.actionId);
  },
});
