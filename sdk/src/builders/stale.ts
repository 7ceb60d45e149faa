/**
 * `staleAfter`: when a blip's source counts as gone quiet. Past that moment the app draws the
 * blip as stale, so a figure from an extension that stopped updating never passes for fresh.
 */
import { type DateInput, toIsoString } from "./instant.js";

/** Numbers below this are seconds from now; from it up, an epoch time (1e9 s is September 2001). */
export const SECONDS_FROM_NOW_BELOW = 1e9;

/**
 * The payload's `staleAfter` (an ISO string) from a number of seconds from now (below 1e9),
 * or from a moment: a Date, an ISO string, or epoch seconds/milliseconds as for dates.
 *
 * @example
 * staleAfter(600)                 // ten minutes from now
 * staleAfter(1740821400)          // "2025-03-01T09:30:00.000Z" (epoch seconds)
 * stat("mrr", { title: "MRR", value: currency(4200), staleAfter: staleAfter(3 * 3600) })
 */
export function staleAfter(when: DateInput, now: number = Date.now()): string {
  if (typeof when === "number" && when < SECONDS_FROM_NOW_BELOW) return toIsoString(now + when * 1000);
  return toIsoString(when);
}
