/**
 * When the app runs `update()` next, by its rules (host/README.md, "Scheduling"): after a run,
 * `nextRunAfter` seconds when the run returned it (at least 1 s), else the manifest's interval;
 * a webhook event cuts a longer wait back to the interval. Runs start on time here: the app's
 * tolerance only ever makes them later, to share a wake-up with other extensions.
 */
import { toMilliseconds } from "./duration.js";

/** A `nextRunAfter` shorter than this (0 included) waits this long, so a run cannot spin. */
const MIN_NEXT_RUN_AFTER_MS = 1_000;

/**
 * @example
 * const schedule = new RunSchedule("5m");
 * schedule.ranAt(now, 30); // schedule.nextRunAt === now + 30_000
 */
export class RunSchedule {
  /** Epoch ms of the next run, if one is due. */
  nextRunAt: number | undefined;
  private lastRunEnd: number | undefined;
  private readonly intervalMs: number | undefined;

  constructor(interval: string | undefined) {
    this.intervalMs = interval === undefined ? undefined : toMilliseconds(interval);
  }

  /** A run ended at `now`, answering `nextRunAfter` seconds (or nothing). */
  ranAt(now: number, nextRunAfter: number | undefined): void {
    this.lastRunEnd = now;
    if (nextRunAfter !== undefined)
      this.nextRunAt = now + Math.max(MIN_NEXT_RUN_AFTER_MS, Math.round(nextRunAfter * 1000));
    else this.nextRunAt = this.intervalMs === undefined ? undefined : now + this.intervalMs;
  }

  /** A webhook event arrived. */
  webhook(): void {
    if (this.nextRunAt === undefined || this.lastRunEnd === undefined || this.intervalMs === undefined) return;
    this.nextRunAt = Math.min(this.nextRunAt, this.lastRunEnd + this.intervalMs);
  }
}
