/**
 * A clock that only moves when told: unit tests drive it directly, and `svc-host` uses it when
 * `SVC_HOST_CLOCK=manual` so integration tests can advance the real host's time over its
 * control channel. A timer set for now (0 ms) still fires on its own, right after the current
 * task, as a real one would; every later one waits for `advance`.
 */
import type { Clock, Timer } from "./clock.js";

interface Pending {
  at: number;
  order: number;
  fire: () => void;
  cancelled: boolean;
}

/**
 * @example
 * const clock = new ManualClock(0);
 * clock.setTimer(10_000, () => console.log("fired at", clock.now()));
 * clock.advance(15_000); // prints "fired at 10000"; clock.now() is then 15000
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly pending: Pending[] = [];
  private order = 0;

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fire: () => void): Timer {
    const entry: Pending = { at: this.current + Math.max(0, ms), order: this.order++, fire, cancelled: false };
    this.pending.push(entry);
    // Time stands still, but what is due now still happens (soon, as with a real timer).
    if (ms <= 0) setImmediate(() => this.fireIfPending(entry));
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /**
   * Moves time forward by `ms`, firing each due timer in order with `now()` set to its own time,
   * timers set while advancing included.
   */
  advance(ms: number): number {
    const target = this.current + Math.max(0, ms);
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.pending.splice(this.pending.indexOf(next), 1);
      this.current = Math.max(this.current, next.at);
      next.fire();
    }
    this.current = target;
    return this.current;
  }

  /** How many live timers are waiting (tests use it to prove nothing is left behind). */
  get timerCount(): number {
    return this.pending.filter((entry) => !entry.cancelled).length;
  }

  private fireIfPending(entry: Pending): void {
    const index = this.pending.indexOf(entry);
    if (index === -1 || entry.cancelled) return;
    this.pending.splice(index, 1);
    entry.fire();
  }

  private nextDue(limit: number): Pending | undefined {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if (this.pending[i]!.cancelled) this.pending.splice(i, 1);
    }
    let best: Pending | undefined;
    for (const entry of this.pending) {
      if (entry.at > limit) continue;
      if (!best || entry.at < best.at || (entry.at === best.at && entry.order < best.order)) best = entry;
    }
    return best;
  }
}
