/**
 * The one clock of a test: the guest's `Date` and timers, the runtime's stamps and restart
 * window, the schedule and the blips' stale and dismiss times all read it. It stands still until
 * a test moves it; moving it fires what falls due, in time order, each at its own moment.
 */
import type { SandboxClock } from "@svc/sandbox";

interface Pending {
  due: number;
  order: number;
  callback: () => void;
}

/**
 * @example
 * const clock = new ManualClock(Date.parse("2025-03-01T09:30:00Z"));
 * clock.setTimeout(() => console.log("a minute later"), 60_000);
 * clock.step(clock.now() + 60_000); // runs it
 */
export class ManualClock implements SandboxClock {
  private current: number;
  private order = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(start: number) {
    if (!Number.isFinite(start)) throw new RangeError(`the clock's start should be epoch milliseconds; got ${start}`);
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): number {
    const id = ++this.order;
    this.pending.set(id, { due: this.current + Math.max(0, ms), order: id, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** When the earliest pending timer falls due, or undefined when none is pending. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const timer of this.pending.values()) if (next === undefined || timer.due < next) next = timer.due;
    return next;
  }

  /**
   * Moves the clock to `time` (never backwards) and runs the timers due by then whose moment is
   * the earliest, all at that moment; returns how many ran. Call again to reach later ones.
   */
  step(time: number): number {
    const next = this.nextDue();
    if (next === undefined || next > time) {
      this.current = Math.max(this.current, time);
      return 0;
    }
    this.current = Math.max(this.current, next);
    const due = [...this.pending.values()].filter((t) => t.due === next).sort((a, b) => a.order - b.order);
    for (const timer of due) {
      this.pending.delete(timer.order);
      timer.callback();
    }
    return due.length;
  }

  /** Number of timers waiting. */
  get size(): number {
    return this.pending.size;
  }
}
