/**
 * Focus: a session timer. Start → a countdown with Pause and Stop; Pause → the time left, with
 * Resume and Stop; when the time is up, a note under the notch and the count of sessions done.
 * The state lives in `ctx.storage`, so it survives restarts of the app.
 */
import { countdown, defineExtension, stat, text, type Ctx } from "@svc/api";
import { act, finishIfDue, forToday, READY, type Session } from "./session.js";

const KEY = "session";

function lengthMs(ctx: Ctx): number {
  const minutes = Number(ctx.preferences.minutes);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : 25) * 60_000;
}

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The last blip emitted while this code is loaded: an unchanged one is not sent again. */
let lastShown: string | undefined;

async function emitChanged(ctx: Ctx, blip: Parameters<Ctx["emit"]>[0]): Promise<void> {
  const json = JSON.stringify(blip);
  if (json === lastShown) return;
  await ctx.emit(blip);
  lastShown = json;
}

async function show(ctx: Ctx, session: Session): Promise<void> {
  const done = session.done === 1 ? "1 session done today" : `${session.done} sessions done today`;
  if (session.phase === "running") {
    await emitChanged(
      ctx,
      countdown("session", {
        title: "Focus",
        subtitle: done,
        state: "running",
        icon: "timer",
        endsAt: session.endsAt!,
        startedAt: session.startedAt,
        actions: [
          { id: "pause", title: "Pause", icon: "pause" },
          { id: "stop", title: "Stop", icon: "stop", role: "destructive" },
        ],
      }),
    );
  } else if (session.phase === "paused") {
    await emitChanged(
      ctx,
      stat("session", {
        title: "Focus (paused)",
        subtitle: done,
        state: "waiting",
        icon: "pause",
        value: text(`${clock(session.leftMs ?? 0)} left`),
        actions: [
          { id: "start", title: "Resume", icon: "play", role: "primary" },
          { id: "stop", title: "Stop", icon: "stop", role: "destructive" },
        ],
      }),
    );
  } else {
    await emitChanged(
      ctx,
      stat("session", {
        title: "Focus",
        subtitle: done,
        state: "idle",
        icon: "timer",
        value: text(`Ready: ${clock(lengthMs(ctx))}`),
        actions: [{ id: "start", title: "Start", icon: "play", role: "primary" }],
      }),
    );
  }
}

async function load(ctx: Ctx, now: number): Promise<Session> {
  return forToday((await ctx.storage.get<Session>(KEY)) ?? READY, now);
}

export default defineExtension({
  async update(ctx) {
    const now = Date.now();
    const { session, finished } = finishIfDue(await load(ctx, now), now);
    await ctx.storage.set(KEY, session);
    if (finished) {
      const rest = Number(ctx.preferences.breakMinutes);
      await ctx.notify("Focus session done", `Take a ${Number.isFinite(rest) && rest > 0 ? rest : 5} minute break`);
    }
    await show(ctx, session);
    // Wake exactly when a running session ends, so its end is noticed on time.
    if (session.phase === "running")
      return { nextRunAfter: Math.max(1, Math.ceil(((session.endsAt ?? now) - now) / 1000)) };
    return {};
  },

  async onAction(ctx, action) {
    const now = Date.now();
    const session = act(await load(ctx, now), action.actionId, now, lengthMs(ctx));
    await ctx.storage.set(KEY, session);
    await show(ctx, session);
  },
});
