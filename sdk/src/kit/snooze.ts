/**
 * Reading a snooze request ("3h", "tomorrow", "monday") as the moment the item wakes.
 * Mornings start at the person's working hours when known, else at 9:00.
 */
import { type DateInput, describe } from "../builders/instant.js";
import type { WorkingHours } from "../types.js";
import { staleAfter } from "../builders/stale.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const DEFAULT_MORNING = 9 * 60;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const UNIT_MS: Record<string, number> = { m: MINUTE_MS, h: 60 * MINUTE_MS, d: DAY_MS, w: 7 * DAY_MS };

export interface SnoozeOptions {
  /** The person's working hours (`await ctx.workingHours()`): mornings start at `start`. */
  workingHours?: WorkingHours;
  /**
   * Minutes the person's clock is ahead of UTC. Default: the interpreter's own
   * (`-new Date(now).getTimezoneOffset()`).
   */
  utcOffset?: number;
}

/**
 * When a snoozed item wakes, as an ISO string. `choice` is what the person typed or picked:
 * - `"30m"`, `"3h"`, `"2d"`, `"1w"`: that long from now;
 * - `"tomorrow"`: tomorrow morning; `"monday"` … `"sunday"`: that day's next morning
 *   (a week on when it is today); `"next week"`: next Monday morning;
 * - a number: seconds from now below 1e9, else an epoch time; a Date or an ISO string: then.
 * Left out or empty, it is tomorrow morning.
 *
 * @example
 * snoozeUntil("3h", Date.parse("2025-03-01T09:30:00Z"))  // "2025-03-01T12:30:00.000Z"
 * snoozeUntil(action.input, Date.now(), { workingHours: await ctx.workingHours() })
 * @throws Error for text it cannot read, saying what it takes (the action then fails and the item comes back).
 */
export function snoozeUntil(
  choice: DateInput | undefined,
  now: number = Date.now(),
  options: SnoozeOptions = {},
): string {
  if (typeof choice === "number" || choice instanceof Date) return staleAfter(choice, now);
  const said = (choice ?? "").trim().toLowerCase();
  const morning = options.workingHours?.start ?? DEFAULT_MORNING;
  const offset = options.utcOffset ?? -new Date(now).getTimezoneOffset();

  const span = /^(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/.exec(said);
  if (span) return new Date(now + Number(span[1]) * UNIT_MS[span[2][0]]).toISOString();

  if (said === "" || said === "tomorrow") return morningAfter(now, 1, morning, offset);
  if (said === "next week") return morningAfter(now, daysUntil(now, offset, 1), morning, offset);
  const weekday = WEEKDAYS.indexOf(said);
  if (weekday >= 0) return morningAfter(now, daysUntil(now, offset, weekday), morning, offset);

  // Only ISO dates: engines read other text as dates too loosely ("3" is the year 2003 in V8).
  if (/^\d{4}-\d{2}-\d{2}/.test(said)) return staleAfter((choice as string).trim(), now);
  throw new Error(`can't snooze for ${describe(choice)}: try 30m, 3h, 2d, tomorrow, monday or next week`);
}

/** Days from the person's today to the next `weekday` (0 = Sunday), 1–7: today's own weekday is a week on. */
function daysUntil(now: number, offset: number, weekday: number): number {
  const today = new Date(now + offset * MINUTE_MS).getUTCDay();
  return ((weekday - today + 6) % 7) + 1;
}

/** `morning` minutes after the person's local midnight, `days` days from today, as an ISO string. */
function morningAfter(now: number, days: number, morning: number, offset: number): string {
  const local = now + offset * MINUTE_MS;
  const localMidnight = local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
  return new Date(localMidnight + days * DAY_MS + morning * MINUTE_MS - offset * MINUTE_MS).toISOString();
}
