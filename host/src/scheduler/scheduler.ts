/**
 * When each extension's `update()` runs. One timer for all extensions: the scheduler wakes at
 * the latest moment that still honours every window it serves (see `pickWakeUp`), runs every
 * extension that is due, and waits again. Rules (host/README.md, "Scheduling"):
 *
 * - a run at launch (trigger `launch`), then one every manifest `interval` (trigger `interval`);
 *   the wait starts when the previous run settles, so runs of one extension never overlap;
 * - `nextRunAfter` (seconds) replaces the wait before the next run only;
 * - a webhook event cuts a longer wait back to the interval;
 * - `manual` and `preferences` runs start at once (or right after the run under way);
 * - a run that has not settled after 30 s is given up;
 * - while paused (screen asleep or locked) no scheduled run starts; `resume()` runs each overdue
 *   extension once, spread over at most 3 s (`wakeOffset`);
 * - on battery (`setOnBattery(true)`, told by the desktop shell) every scheduled wait is three
 *   times as long, never shorter than the manifest interval; back on power the waits are the
 *   usual again (a run already overdue then runs at once).
 */
import type { Clock, Timer } from "../clock/index.js";
import { MIN_NEXT_RUN_AFTER_MS, RUN_TIMEOUT_MS, stretchWait, toleranceFor, wakeOffset } from "./rules.js";
import { pickWakeUp, type Window } from "./wake-up.js";

export type RunTrigger = "launch" | "interval" | "manual" | "preferences";

/** What a run answered: `nextRunAfter` in seconds, for the next run only. */
export interface RunOutcome {
  nextRunAfter?: number;
}

/** A settled run, for the display and the tests. */
export interface RunReport {
  id: string;
  trigger: RunTrigger;
  startedAt: number;
  endedAt: number;
  result: "ok" | "failed" | "timeout";
  error?: string;
  /** When the next scheduled run is due, if one is. */
  nextRunAt?: number;
}

export interface SchedulerOptions {
  clock: Clock;
  /** Starts one run (`extension.run`). */
  run(id: string, trigger: RunTrigger): Promise<RunOutcome>;
  onRunStart?(id: string, trigger: RunTrigger, at: number): void;
  onRunEnd?(report: RunReport): void;
  runTimeoutMs?: number;
}

export interface ScheduleOptions {
  /** The manifest interval in ms; without one, the extension runs at launch and when asked. */
  intervalMs?: number;
}

interface Due extends Window {
  trigger: "launch" | "interval";
  /** When the wait leading here began (the end of the last run). */
  waitStartedAt: number;
  /** The wait as the rules set it, before any stretch on battery. */
  waitMs: number;
}

interface Entry {
  id: string;
  intervalMs?: number;
  due?: Due;
  running?: symbol;
  /** A manual or preferences run asked for while a run was under way. */
  queued?: RunTrigger;
}

/**
 * @example
 * const scheduler = new Scheduler({ clock: systemClock, run: (id, trigger) => runtime.run(id, trigger) });
 * scheduler.add("com.example.weather", { intervalMs: 300_000 }); // runs now (launch), then every 5 min
 * scheduler.pause(); // the screen locked
 * scheduler.resume(); // overdue runs happen once
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private timer: Timer | undefined;
  private isPaused = false;
  private battery = false;
  private readonly runTimeoutMs: number;

  constructor(private readonly options: SchedulerOptions) {
    this.runTimeoutMs = options.runTimeoutMs ?? RUN_TIMEOUT_MS;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** Starts scheduling an extension: its launch run is due now. Replaces an earlier entry. */
  add(id: string, schedule: ScheduleOptions = {}): void {
    this.entries.delete(id);
    const now = this.options.clock.now();
    this.entries.set(id, {
      id,
      intervalMs: schedule.intervalMs,
      due: { at: now, toleranceMs: 0, trigger: "launch", waitStartedAt: now, waitMs: 0 },
    });
    this.replan();
  }

  /** Stops scheduling an extension; a run under way is forgotten (its answer is ignored). */
  remove(id: string): void {
    if (this.entries.delete(id)) this.replan();
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** A `manual` or `preferences` run: now, or right after the run under way (once). */
  runNow(id: string, trigger: RunTrigger): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (entry.running) entry.queued = trigger;
    else this.start(entry, trigger);
    this.replan();
    return true;
  }

  /** A webhook event arrived: a wait longer than the interval is cut back to the interval. */
  webhookEvent(id: string): void {
    const entry = this.entries.get(id);
    const due = entry?.due;
    if (!entry || !due || entry.intervalMs === undefined || due.trigger !== "interval") return;
    const cut = due.waitStartedAt + entry.intervalMs;
    if (cut >= due.at) return;
    entry.due = { ...due, at: cut, toleranceMs: toleranceFor(entry.intervalMs) };
    this.replan();
  }

  /** Screen asleep or locked: no scheduled run starts until `resume()`. */
  pause(): void {
    this.isPaused = true;
    this.replan();
  }

  /**
   * Screen back: every overdue extension runs once, then the schedule goes on. The overdue runs
   * are spread out in the order they fell due (then by id): the first at once, the others
   * `wakeOffset` later, each with no tolerance so none is gathered later still.
   */
  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    const now = this.options.clock.now();
    const overdue = [...this.entries.values()]
      .filter(
        (entry): entry is Entry & { due: Due } => entry.due !== undefined && !entry.running && entry.due.at <= now,
      )
      .sort((a, b) => a.due.at - b.due.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    overdue.forEach((entry, index) => {
      entry.due = { ...entry.due, at: now + wakeOffset(index, overdue.length), toleranceMs: 0 };
    });
    this.runDue();
  }

  get onBattery(): boolean {
    return this.battery;
  }

  /** On battery: scheduled waits stretch (see `stretchWait`); back on power they are the usual again. */
  setOnBattery(on: boolean): void {
    if (on === this.battery) return;
    this.battery = on;
    for (const entry of this.entries.values()) {
      const due = entry.due;
      if (due?.trigger !== "interval") continue;
      const waitMs = this.effectiveWait(due.waitMs, entry);
      entry.due = { ...due, at: due.waitStartedAt + waitMs, toleranceMs: toleranceFor(waitMs) };
    }
    this.replan();
  }

  /** When the next scheduled run of `id` is due; undefined while it runs or when none is. */
  nextRunAt(id: string): number | undefined {
    return this.entries.get(id)?.due?.at;
  }

  isRunning(id: string): boolean {
    return this.entries.get(id)?.running !== undefined;
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.entries.clear();
  }

  private start(entry: Entry, trigger: RunTrigger): void {
    const { clock } = this.options;
    const token = Symbol(entry.id);
    const startedAt = clock.now();
    entry.running = token;
    entry.due = undefined;
    this.options.onRunStart?.(entry.id, trigger, startedAt);

    let settled = false;
    const finish = (result: RunReport["result"], outcome: RunOutcome, error?: string) => {
      if (settled) return;
      settled = true;
      timeout.cancel();
      if (this.entries.get(entry.id) !== entry || entry.running !== token) return;
      this.settle(entry, { id: entry.id, trigger, startedAt, endedAt: clock.now(), result, error }, outcome);
    };
    const timeout = clock.setTimer(this.runTimeoutMs, () =>
      finish("timeout", {}, `did not settle within ${this.runTimeoutMs / 1000} s`),
    );
    let running: Promise<RunOutcome>;
    try {
      running = Promise.resolve(this.options.run(entry.id, trigger));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (outcome) => finish("ok", outcome ?? {}),
      (error: unknown) => finish("failed", {}, error instanceof Error ? error.message : String(error)),
    );
  }

  private settle(entry: Entry, report: RunReport, outcome: RunOutcome): void {
    entry.running = undefined;
    const ruleWaitMs = this.waitAfter(entry, outcome);
    if (ruleWaitMs !== undefined) {
      const waitMs = this.effectiveWait(ruleWaitMs, entry);
      entry.due = {
        at: report.endedAt + waitMs,
        toleranceMs: toleranceFor(waitMs),
        trigger: "interval",
        waitStartedAt: report.endedAt,
        waitMs: ruleWaitMs,
      };
    }
    const queued = entry.queued;
    entry.queued = undefined;
    this.options.onRunEnd?.({ ...report, nextRunAt: entry.due?.at });
    if (queued) this.start(entry, queued);
    this.replan();
  }

  private effectiveWait(waitMs: number, entry: Entry): number {
    return this.battery ? stretchWait(waitMs, entry.intervalMs) : waitMs;
  }

  private waitAfter(entry: Entry, outcome: RunOutcome): number | undefined {
    const after = outcome.nextRunAfter;
    if (typeof after === "number" && Number.isFinite(after) && after >= 0) {
      return Math.max(MIN_NEXT_RUN_AFTER_MS, Math.round(after * 1000));
    }
    return entry.intervalMs;
  }

  private runDue(): void {
    if (this.isPaused) return;
    const now = this.options.clock.now();
    for (const entry of [...this.entries.values()]) {
      if (entry.due && !entry.running && entry.due.at <= now) this.start(entry, entry.due.trigger);
    }
    this.replan();
  }

  private replan(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.isPaused) return;
    const windows = [...this.entries.values()].flatMap((entry) => (entry.due && !entry.running ? [entry.due] : []));
    const wakeAt = pickWakeUp(windows);
    if (wakeAt === undefined) return;
    const { clock } = this.options;
    this.timer = clock.setTimer(Math.max(0, wakeAt - clock.now()), () => {
      this.timer = undefined;
      this.runDue();
    });
  }
}
