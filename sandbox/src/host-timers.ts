/**
 * The host half of guest timers: `timer.sleep` is a host timer that answers when due, and
 * `timer.cancel` clears it and drops the answer. All are cleared when the sandbox goes.
 */
import { MAX_TIMERS } from "./limits.js";
import type { SandboxClock } from "./types.js";

/** The real clock's timers. */
const REAL_TIMERS: Pick<SandboxClock, "setTimeout" | "clearTimeout"> = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class HostTimers {
  private readonly pending = new Map<number, { timer: unknown; callId: number }>();

  constructor(
    private readonly dropAnswer: (callId: number) => void,
    private readonly clock: Pick<SandboxClock, "setTimeout" | "clearTimeout"> = REAL_TIMERS,
  ) {}

  /**
   * Resolves after `ms`; a guest timer id may be armed again only after it fired or was
   * cancelled. `signal` (the invocation that set it ended early) cancels it.
   */
  sleep(id: number, ms: number, callId: number, signal?: AbortSignal): Promise<null> {
    if (this.pending.has(id)) this.cancel(id);
    if (this.pending.size >= MAX_TIMERS) {
      return Promise.reject(new RangeError(`setTimeout: too many timers pending (limit ${MAX_TIMERS})`));
    }
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, ms);
      this.pending.set(id, { timer, callId });
      signal?.addEventListener("abort", () => {
        if (this.pending.get(id)?.timer === timer) this.cancel(id);
      }, { once: true });
    });
  }

  cancel(id: number): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.clock.clearTimeout(entry.timer);
    this.pending.delete(id);
    this.dropAnswer(entry.callId);
  }

  clearAll(): void {
    for (const id of [...this.pending.keys()]) this.cancel(id);
  }

  get size(): number {
    return this.pending.size;
  }
}
