/**
 * The scheduling rules in numbers, each documented in host/README.md ("Scheduling").
 */

/** `extension.run` is given up after this long (SPEC: the host times out after 30 s). */
export const RUN_TIMEOUT_MS = 30_000;

/**
 * A scheduled run may start up to this fraction of its wait late (never early), so that runs
 * of several extensions that fall close together share one wake-up.
 */
export const TOLERANCE_FRACTION = 0.1;

/** The lateness allowed by the tolerance is capped at one minute, whatever the interval. */
export const MAX_TOLERANCE_MS = 60_000;

/** A `nextRunAfter` shorter than this (0 included) waits this long, so a run cannot spin. */
export const MIN_NEXT_RUN_AFTER_MS = 1_000;

/**
 * At resume the overdue runs start one after another, this far apart, in the order they fell
 * due (then by id), so thirty extensions do not all start in the same millisecond.
 */
export const WAKE_STEP_MS = 100;

/** However many are overdue, the last of them starts within this long of the resume. */
export const WAKE_SPREAD_MS = 3_000;

/**
 * How long after the resume the `index`-th of `count` overdue runs starts.
 *
 * @example
 * wakeOffset(0, 30); // 0: the first runs at once
 * wakeOffset(29, 30); // 2_900
 * wakeOffset(60, 61); // 3_000: 61 runs share the three seconds (50 ms apart)
 */
export function wakeOffset(index: number, count: number): number {
  const step = count > 1 ? Math.min(WAKE_STEP_MS, Math.floor(WAKE_SPREAD_MS / (count - 1))) : 0;
  return index * step;
}

/** On battery every scheduled wait is this many times as long (never shorter than the manifest interval). */
export const BATTERY_STRETCH = 3;

/**
 * A scheduled wait on battery: stretched, and never below the manifest interval.
 *
 * @example
 * stretchWait(300_000, 300_000); // 900_000
 * stretchWait(5_000, 300_000); // 300_000: a short nextRunAfter waits the interval
 */
export function stretchWait(waitMs: number, intervalMs: number | undefined): number {
  return Math.max(waitMs * BATTERY_STRETCH, intervalMs ?? 0);
}

/** Manifest `interval` lower bound (SPEC "Limits"). */
export const MIN_INTERVAL_MS = 10_000;

/**
 * How late a run that waited `waitMs` may start.
 *
 * @example
 * toleranceFor(300_000); // 30_000: a five-minute interval may run up to 30 s late
 */
export function toleranceFor(waitMs: number): number {
  return Math.min(MAX_TOLERANCE_MS, Math.floor(waitMs * TOLERANCE_FRACTION));
}

/**
 * Reads a manifest `interval` (`<n>s`, `<n>m`, `<n>h`) as milliseconds; `undefined` when it is
 * missing or malformed or under the 10 s minimum (the manifest check reports those).
 *
 * @example
 * parseInterval("5m"); // 300_000
 */
export function parseInterval(interval: unknown): number | undefined {
  if (typeof interval !== "string") return undefined;
  const match = /^([1-9][0-9]{0,6})(s|m|h)$/.exec(interval);
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as "s" | "m" | "h"];
  const ms = Number(match[1]) * unit;
  return ms >= MIN_INTERVAL_MS ? ms : undefined;
}
