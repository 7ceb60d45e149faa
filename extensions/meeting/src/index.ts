/**
 * Next Meeting: a countdown to the next event (or to the end of the one under way) with a Join
 * button when the event holds a Meet, Zoom or Teams link, and today's list. Events come from an
 * iCal address (src/sources.ts), fetched at most every 15 minutes, and from .ics files in
 * ~/Calendars, read on every run and whenever they change; src/ics.ts reads them and
 * src/recurrence.ts puts them on the clock.
 */
import {
  clip,
  connectionBlip,
  countdown,
  defineExtension,
  joinLine,
  list,
  probe,
  recovered,
  retryLater,
  stat,
  text,
  type Action,
  type Ctx,
  type Problem,
} from "@svc/api";
import { parseCalendar } from "./ics.js";
import { joinLink, type JoinLink } from "./links.js";
import { occurrences } from "./recurrence.js";
import { FOLDER, remoteAddress } from "./sources.js";

const NEXT = "next";
const TODAY = "today";
const REMOTE = "remote";
const DAY = 86_400_000;
const REFETCH_MS = 15 * 60_000;
/** An event starting within this is "waiting". */
const SOON_MS = 10 * 60_000;
/** How far ahead "next" looks. */
const AHEAD_DAYS = 7;

/** One occurrence as the blips need it (and as the remote calendar's are kept between fetches). */
interface Slot {
  title: string;
  where: string;
  start: number;
  end: number;
  allDay: boolean;
  join?: JoinLink;
}

interface Remote {
  url: string;
  fetchedAt: number;
  slots: Slot[];
}

function startOfToday(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** The occurrences of a calendar's text from the start of today to a week ahead. */
function slotsOf(ics: string, now: number): Slot[] {
  const from = startOfToday(now);
  return occurrences(parseCalendar(ics), from, from + (AHEAD_DAYS + 1) * DAY).map((o) => {
    const join = joinLink(o.event);
    return {
      title: o.event.summary.trim() || "Busy",
      where: o.event.location,
      start: o.start,
      end: o.end,
      allDay: o.allDay,
      ...(join ? { join } : {}),
    };
  });
}

/**
 * The .ics files in ~/Calendars when the person turned that on: `undefined` when it is off, a
 * problem when the folder is not there (the fence refuses a listed folder that does not exist).
 */
async function localSlots(ctx: Ctx, now: number): Promise<Slot[] | string | undefined> {
  if (ctx.preferences.folder !== true) return undefined;
  let names: string[];
  try {
    names = (await ctx.files.list(FOLDER)).filter((n) => /\.ics$/i.test(n));
  } catch {
    return `Make the folder ${FOLDER} and put .ics files in it`;
  }
  const slots: Slot[] = [];
  for (const name of names) slots.push(...slotsOf(await ctx.files.read(`${FOLDER}/${name}`), now));
  return slots;
}

/** The remote calendar's slots: those kept when fetched less than 15 minutes ago, else fetched. */
async function remoteSlots(
  ctx: Ctx,
  url: string,
  now: number,
  force: boolean,
): Promise<{ slots: Slot[] } | { problem: Problem }> {
  const kept = await ctx.storage.get<Remote>(REMOTE);
  if (
    kept?.url === url &&
    !force &&
    now - kept.fetchedAt < REFETCH_MS &&
    startOfToday(kept.fetchedAt) === startOfToday(now)
  ) {
    return { slots: kept.slots };
  }
  const res = await probe(fetch(url, { headers: { Accept: "text/calendar" } }));
  if (!res.ok) return { problem: res.problem };
  const slots = slotsOf(await res.value.text(), now);
  await ctx.storage.set(REMOTE, { url, fetchedAt: now, slots } satisfies Remote);
  return { slots };
}

const clock = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const dayAndClock = new Intl.DateTimeFormat(undefined, { weekday: "short", hour: "numeric", minute: "2-digit" });

function span(slot: Slot, now: number): string {
  if (slot.allDay) return "All day";
  const sameDay = startOfToday(slot.start) === startOfToday(now);
  return `${(sameDay ? clock : dayAndClock).format(slot.start)}–${clock.format(slot.end)}`;
}

const joinAction = (join: JoinLink): Action => ({
  id: "join",
  title: "Join",
  icon: "video",
  role: "primary",
  url: join.url,
});

async function show(ctx: Ctx, slots: Slot[], now: number): Promise<void> {
  const sorted = [...slots].sort((a, b) => a.start - b.start);
  const timed = sorted.filter((s) => !s.allDay && s.end > now && s.start < now + AHEAD_DAYS * DAY);
  const current = timed.find((s) => s.start <= now);
  const next = current ?? timed[0];
  if (!next) {
    await ctx.emit(
      stat(NEXT, {
        title: "Next Meeting",
        icon: "calendar",
        state: "idle",
        value: text("Nothing ahead"),
        label: `No events in the next ${AHEAD_DAYS} days`,
      }),
    );
  } else {
    await ctx.emit(
      countdown(NEXT, {
        title: clip(next.title, 60),
        subtitle: joinLine([
          current ? `until ${clock.format(next.end)}` : span(next, now),
          clip(next.where, 40),
          next.join?.service,
        ]),
        icon: next.join ? "video" : "calendar.badge.clock",
        // Waiting on it only when it is about to start; far ahead it is just the next thing.
        state: current ? "running" : next.start - now <= SOON_MS ? "waiting" : "idle",
        endsAt: current ? next.end : next.start,
        ...(current ? { startedAt: next.start } : {}),
        ...(next.join ? { url: next.join.url, actions: [joinAction(next.join)] } : {}),
      }),
    );
  }
  const endOfToday = startOfToday(now) + DAY;
  const left = sorted.filter((s) => s.end > now && s.start < endOfToday);
  if (left.length === 0) {
    await ctx.remove(TODAY);
    return;
  }
  await ctx.emit(
    list(TODAY, {
      title: "Today",
      icon: "calendar",
      total: left.length,
      items: left.slice(0, 5).map((s, i) => ({
        id: `e${i}`,
        title: clip(s.title, 60),
        subtitle: joinLine([span(s, now), clip(s.where, 40)]),
        state: s.start <= now ? ("running" as const) : ("idle" as const),
        ...(s.join ? { actions: [joinAction(s.join)] } : {}),
      })),
      // Read when fetched: after a sleep the list reads as old until the next run.
      staleAfter: 30 * 60,
    }),
  );
}

/** Seconds until something on show changes: an event is soon, starts or ends, or the day turns. */
function untilChange(slots: Slot[], now: number): number {
  const moments = slots.flatMap((s) => [s.start - SOON_MS, s.start, s.end]).filter((t) => t > now);
  const soonest = Math.min(startOfToday(now) + DAY, ...moments);
  return Math.max(30, Math.min(300, Math.ceil((soonest - now) / 1000)));
}

async function refresh(ctx: Ctx, force: boolean): Promise<{ nextRunAfter?: number }> {
  const now = Date.now();
  const remote = remoteAddress(ctx.preferences.server, ctx.preferences.address);
  const local = await localSlots(ctx, now);
  const problem = remote && "problem" in remote ? remote.problem : typeof local === "string" ? local : undefined;
  if (problem) {
    await ctx.emit(
      stat(NEXT, {
        title: "Next Meeting",
        icon: "calendar",
        state: "warning",
        value: text("Can't read the calendar"),
        label: problem,
      }),
    );
    return {};
  }
  if (!remote && local === undefined) {
    await ctx.remove(TODAY);
    await ctx.emit(
      stat(NEXT, {
        title: "Next Meeting",
        icon: "calendar",
        state: "idle",
        value: text("No calendar"),
        label: "Set your calendar's address in Settings, or turn on ~/Calendars",
      }),
    );
    return {};
  }
  let slots = (local as Slot[] | undefined) ?? [];
  if (remote && "url" in remote) {
    const got = await remoteSlots(ctx, remote.url, now, force);
    if ("problem" in got) {
      const plan = await retryLater(ctx.storage, got.problem, { base: 30 });
      // Today's list stays as it was, drawn stale once its time passes.
      await ctx.emit(connectionBlip(NEXT, plan.problem, { title: "Next Meeting" }));
      return { nextRunAfter: plan.nextRunAfter };
    }
    await recovered(ctx.storage);
    slots = [...slots, ...got.slots];
  }
  await show(ctx, slots, now);
  return { nextRunAfter: untilChange(slots, now) };
}

export default defineExtension({
  async update(ctx) {
    const asked = ctx.trigger?.type === "manual" || ctx.trigger?.type === "preferences";
    return refresh(ctx, asked);
  },
  async onEvent(ctx, event) {
    if (event.type === "file") await refresh(ctx, false);
  },
});
