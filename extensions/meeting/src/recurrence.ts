/**
 * From parsed events (src/ics.ts) to the occurrences in a window, as instants: time zones
 * resolved with the sandbox's `Intl` (a repeat keeps its wall-clock time across a DST change,
 * as RFC 5545 says), RRULE expanded for the common cases — FREQ DAILY, WEEKLY, MONTHLY, YEARLY
 * with INTERVAL, COUNT, UNTIL, BYDAY (`MO`, `2TU`, `-1FR`), BYMONTHDAY, BYMONTH — EXDATEs left
 * out, and a moved or cancelled occurrence (RECURRENCE-ID) taking its original's place. Other
 * rule parts (BYSETPOS, BYWEEKNO, BYYEARDAY, BYHOUR …) are not read: such an event repeats by
 * its FREQ alone.
 */
import type { IcsEvent, IcsTime, Wall } from "./ics.js";

export interface Occurrence {
  event: IcsEvent;
  /** Epoch ms. */
  start: number;
  end: number;
  allDay: boolean;
}

const DAY = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `zone` at `instant`. */
function offsetMs(zone: string, instant: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  const asUtc = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a wall time stands for in `zone` (`utc`, `floating` = the person's own, or IANA). */
export function instantOf(wall: Wall, zone: string): number {
  const { year, month, day, hour, minute, second } = wall;
  if (zone === "floating") return new Date(year, month - 1, day, hour, minute, second).getTime();
  const guess = Date.UTC(year, month - 1, day, hour, minute, second);
  if (zone === "utc") return guess;
  const first = guess - offsetMs(zone, guess);
  // Near a change of offset the first guess used the wrong side's offset: correct once.
  return guess - offsetMs(zone, first);
}

const timeOf = (t: IcsTime) => instantOf(t.wall, t.allDay ? "floating" : t.zone);

/** Calendar arithmetic on the date part; the time of day kept. */
function addDays(wall: Wall, days: number): Wall {
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const weekday = (w: { year: number; month: number; day: number }) =>
  new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** Sorts and compares walls: yyyymmddhhmmss. */
const order = (w: Wall) =>
  ((((w.year * 100 + w.month) * 100 + w.day) * 100 + w.hour) * 100 + w.minute) * 100 + w.second;

const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

interface Rule {
  freq: string;
  interval: number;
  count?: number;
  until?: IcsTime;
  byDay: { n: number; day: number }[];
  byMonthDay: number[];
  byMonth: number[];
}

function parseRule(text: string): Rule {
  const parts = Object.fromEntries(
    text.split(";").map((p) => {
      const [k = "", v = ""] = p.split("=");
      return [k.toUpperCase(), v];
    }),
  );
  const numbers = (v?: string) => (v ? v.split(",").map(Number).filter(Number.isFinite) : []);
  const until = parts.UNTIL ? parseUntil(parts.UNTIL) : undefined;
  return {
    freq: (parts.FREQ ?? "").toUpperCase(),
    interval: Math.max(1, Number(parts.INTERVAL) || 1),
    ...(parts.COUNT ? { count: Math.max(0, Number(parts.COUNT) || 0) } : {}),
    ...(until ? { until } : {}),
    byDay: (parts.BYDAY ? parts.BYDAY.split(",") : []).flatMap((d) => {
      const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/i.exec(d.trim());
      return m ? [{ n: Number(m[1] ?? 0), day: WEEKDAYS.indexOf(m[2]!.toUpperCase()) }] : [];
    }),
    byMonthDay: numbers(parts.BYMONTHDAY),
    byMonth: numbers(parts.BYMONTH),
  };
}

/**
 * UNTIL: a UTC time (`…Z`), a time on the event's own clock, or a date (its whole day counts).
 * The zone `utc` or `floating`, where floating is resolved in the event's zone.
 */
function parseUntil(value: string): IcsTime | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  if (!m) return undefined;
  const wall = m[4]
    ? { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4], minute: +m[5]!, second: +m[6]! }
    : { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: 23, minute: 59, second: 59 };
  return { wall, zone: m[7] ? "utc" : "floating", allDay: false };
}

/** The days of one month a MONTHLY (or YEARLY, per month) rule picks. */
function daysOfMonth(rule: Rule, year: number, month: number, startDay: number): number[] {
  const last = daysIn(year, month);
  const picked = new Set<number>();
  for (const d of rule.byMonthDay) {
    const day = d > 0 ? d : last + d + 1;
    if (day >= 1 && day <= last) picked.add(day);
  }
  for (const { n, day } of rule.byDay) {
    const matching: number[] = [];
    for (let d = 1; d <= last; d++) if (weekday({ year, month, day: d }) === day) matching.push(d);
    const chosen = n === 0 ? matching : [matching.at(n > 0 ? n - 1 : n)].filter((d): d is number => d !== undefined);
    for (const d of chosen) picked.add(d);
  }
  if (rule.byMonthDay.length === 0 && rule.byDay.length === 0 && startDay <= last) picked.add(startDay);
  return [...picked].sort((a, b) => a - b);
}

/** The candidate walls of period `k` of the rule, in order (some may fall before the start). */
function period(rule: Rule, start: Wall, k: number): Wall[] {
  const time = { hour: start.hour, minute: start.minute, second: start.second };
  switch (rule.freq) {
    case "DAILY": {
      const day = addDays(start, k * rule.interval);
      return rule.byDay.length === 0 || rule.byDay.some((d) => d.day === weekday(day)) ? [day] : [];
    }
    case "WEEKLY": {
      // Weeks start on Monday (WKST's default).
      const monday = addDays(start, -((weekday(start) + 6) % 7) + 7 * k * rule.interval);
      const days = rule.byDay.length > 0 ? rule.byDay.map((d) => d.day) : [weekday(start)];
      return [...new Set(days)].map((d) => addDays(monday, (d + 6) % 7)).sort((a, b) => order(a) - order(b));
    }
    case "MONTHLY": {
      const index = start.month - 1 + k * rule.interval;
      const year = start.year + Math.floor(index / 12);
      const month = (index % 12) + 1;
      return daysOfMonth(rule, year, month, start.day).map((day) => ({ year, month, day, ...time }));
    }
    case "YEARLY": {
      const year = start.year + k * rule.interval;
      const months = rule.byMonth.length > 0 ? rule.byMonth : [start.month];
      return months
        .sort((a, b) => a - b)
        .flatMap((month) =>
          rule.byDay.length === 0 && rule.byMonthDay.length === 0
            ? start.day <= daysIn(year, month)
              ? [{ year, month, day: start.day, ...time }]
              : []
            : daysOfMonth(rule, year, month, start.day).map((day) => ({ year, month, day, ...time })),
        );
    }
    default:
      return k === 0 ? [start] : [];
  }
}

/** Most periods walked for one rule: a daily rule from ten years back still reaches today. */
const MAX_PERIODS = 5000;

/**
 * No zone is more than 14 hours from UTC: a wall time read as if it were UTC is within this of
 * its instant. Walls far from the window's edges are placed by that alone, so an old daily rule
 * costs no `Intl` call (each crosses to the app) for the years before today.
 */
const ZONE_SLACK = 14 * 3_600_000;
const roughly = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The walls at which a recurring event starts, from DTSTART until past `to` (or COUNT, UNTIL). */
function* starts(event: IcsEvent, to: number): Generator<Wall> {
  const zone = event.start.allDay ? "floating" : event.start.zone;
  if (!event.rrule) {
    yield event.start.wall;
    return;
  }
  const rule = parseRule(event.rrule);
  const begin = order(event.start.wall);
  const until = rule.until ? instantOf(rule.until.wall, rule.until.zone === "utc" ? "utc" : zone) : Infinity;
  /** Whether `wall` starts after `limit`: by the rough instant when it is clear, else exactly. */
  const after = (wall: Wall, limit: number) => {
    const rough = roughly(wall);
    if (rough + ZONE_SLACK < limit) return false;
    if (rough - ZONE_SLACK > limit) return true;
    return instantOf(wall, zone) > limit;
  };
  let count = 0;
  for (let k = 0; k < MAX_PERIODS; k++) {
    for (const wall of period(rule, event.start.wall, k)) {
      if (order(wall) < begin) continue;
      if ((rule.count !== undefined && count >= rule.count) || after(wall, until) || after(wall, to)) return;
      count++;
      yield wall;
    }
  }
}

/** How long each occurrence lasts: DTEND minus DTSTART (in days for all-day events), or the DURATION. */
function lengthOf(event: IcsEvent): { days: number } | { ms: number } {
  if ("durationMs" in event.end) return { ms: Math.max(0, event.end.durationMs) };
  if (event.start.allDay) {
    const days = Math.round(
      (Date.UTC(event.end.wall.year, event.end.wall.month - 1, event.end.wall.day) -
        Date.UTC(event.start.wall.year, event.start.wall.month - 1, event.start.wall.day)) /
        DAY,
    );
    return { days: Math.max(1, days) };
  }
  return { ms: Math.max(0, timeOf(event.end) - timeOf(event.start)) };
}

/**
 * Every occurrence overlapping [from, to), sorted by start: cancelled ones, EXDATEs and
 * originals replaced by a RECURRENCE-ID left out.
 */
export function occurrences(events: readonly IcsEvent[], from: number, to: number): Occurrence[] {
  // Moved or cancelled occurrences, by their event and original start.
  const replaced = new Set(events.filter((e) => e.recurrenceId).map((e) => `${e.uid} ${timeOf(e.recurrenceId!)}`));
  const out: Occurrence[] = [];
  for (const event of events) {
    if (event.cancelled) continue;
    const zone = event.start.allDay ? "floating" : event.start.zone;
    const excluded = new Set(event.exdates.map(timeOf));
    const length = lengthOf(event);
    const longest = "days" in length ? (length.days + 1) * DAY : length.ms;
    for (const wall of starts(event, to)) {
      // Over well before the window: no need to place it exactly.
      if (roughly(wall) + ZONE_SLACK + longest < from) continue;
      const start = instantOf(wall, zone);
      if (excluded.has(start)) continue;
      if (!event.recurrenceId && replaced.has(`${event.uid} ${start}`)) continue;
      const end = "days" in length ? instantOf(addDays(wall, length.days), zone) : start + length.ms;
      if (end > from || (end === start && start >= from)) out.push({ event, start, end, allDay: event.start.allDay });
    }
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}
