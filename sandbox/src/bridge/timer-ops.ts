/**
 * The Node half of guest timers: `timer.sleep` is a host timer that answers when due, and
 * `timer.cancel` clears it and drops the answer. All are cleared when the sandbox goes.
 *
 * Firings are paced: each one costs the sandbox thread ~30 µs outside the guest's own work, so a
 * guest re-arming 1000 timers at 0 ms would burn a core on firings alone. A sandbox's timers fire
 * at most TIMER_FIRINGS_PER_SECOND times a second, in bursts of up to TIMER_FIRINGS_BURST; a timer
 * due past that waits its turn, in the order they fell due, and fires late: never dropped.
 */
import { MAX_TIMERS, TIMER_FIRINGS_BURST, TIMER_FIRINGS_PER_SECOND } from "../limits.js";
import type { SandboxClock } from "../types.js";

/** Waiting timers are let go at most this often, several at a time: one host wake-up costs more than a firing. */
const PACER_MS = 10;

type TimerClock = Pick<SandboxClock, "now" | "setTimeout" | "clearTimeout">;

/** The real clock's timers (`now` is monotonic: only differences are used). */
const REAL_TIMERS: TimerClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Pending {
  /** The host timer until it is due; undefined while the timer waits for its turn to fire. */
  timer: unknown;
  callId: number;
  fire(): void;
  /** Removes its listener from the invocation's signal. */
  forget(): void;
}

export class TimerOps {
  private readonly pending = new Map<number, Pending>();
  /** Due timers waiting for the firing budget, in the order they fell due. */
  private readonly waiting = new Set<number>();
  private tokens = TIMER_FIRINGS_BURST;
  private refilledAt: number;
  /** The host timer that lets waiting timers fire once the budget has room. */
  private pacer: unknown;
  /** Firings that waited for the budget (diagnostics). */
  delayed = 0;

  constructor(
    private readonly dropAnswer: (callId: number) => void,
    private readonly clock: TimerClock = REAL_TIMERS,
  ) {
    this.refilledAt = clock.now();
  }

  /**
   * Resolves after `ms` (later when the sandbox is past its firing budget); a guest timer id may
   * be armed again only after it fired or was cancelled. `signal` (the invocation that set it
   * ended early) cancels it.
   */
  sleep(id: number, ms: number, callId: number, signal?: AbortSignal): Promise<null> {
    if (this.pending.has(id)) this.cancel(id);
    if (this.pending.size >= MAX_TIMERS) {
      return Promise.reject(new RangeError(`setTimeout: too many timers pending (limit ${MAX_TIMERS})`));
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        if (this.pending.get(id) === entry) this.cancel(id);
      };
      const entry: Pending = {
        timer: undefined,
        callId,
        fire: () => {
          entry.forget();
          this.pending.delete(id);
          resolve(null);
        },
        forget: () => signal?.removeEventListener("abort", onAbort),
      };
      entry.timer = this.clock.setTimeout(() => this.due(id, entry), ms);
      this.pending.set(id, entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  cancel(id: number): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    this.waiting.delete(id);
    entry.forget();
    this.pending.delete(id);
    this.dropAnswer(entry.callId);
  }

  clearAll(): void {
    for (const id of [...this.pending.keys()]) this.cancel(id);
    if (this.pacer !== undefined) this.clock.clearTimeout(this.pacer);
    this.pacer = undefined;
  }

  get size(): number {
    return this.pending.size;
  }

  /** A timer fell due: it fires now if the budget has room and no earlier timer waits, else queues. */
  private due(id: number, entry: Pending): void {
    entry.timer = undefined;
    this.refill();
    if (this.waiting.size === 0 && this.tokens >= 1) {
      this.tokens--;
      entry.fire();
      return;
    }
    this.delayed++;
    this.waiting.add(id);
    this.schedulePacer();
  }

  /** Fires the waiting timers the budget has room for, in order; then waits for more room. */
  private release(): void {
    this.pacer = undefined;
    this.refill();
    for (const id of this.waiting) {
      if (this.tokens < 1) break;
      this.tokens--;
      this.waiting.delete(id);
      this.pending.get(id)!.fire();
    }
    this.schedulePacer();
  }

  private schedulePacer(): void {
    if (this.pacer !== undefined || this.waiting.size === 0) return;
    const ms = Math.max(PACER_MS, Math.ceil(((1 - this.tokens) * 1000) / TIMER_FIRINGS_PER_SECOND));
    this.pacer = this.clock.setTimeout(() => this.release(), ms);
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(
      TIMER_FIRINGS_BURST,
      this.tokens + ((now - this.refilledAt) * TIMER_FIRINGS_PER_SECOND) / 1000,
    );
    this.refilledAt = now;
  }
}
