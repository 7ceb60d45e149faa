/**
 * SPEC Limits "worker restarts: at most 3 per 5 minutes". A crashed sandbox is restarted unless
 * three restarts already happened within the window; then it stays crashed until the oldest of
 * them leaves the window.
 */
import type { Clock } from "./clock.js";

export const MAX_RESTARTS = 3;
export const RESTART_WINDOW_MS = 5 * 60 * 1000;

/**
 * @example
 * const window = new RestartWindow(clock);
 * if (window.tryRestart()) recreateSandbox(); else stayCrashed();
 */
export class RestartWindow {
  private restarts: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly max = MAX_RESTARTS,
    private readonly windowMs = RESTART_WINDOW_MS,
  ) {}

  /** Records a restart and returns true when one is allowed now; false when the window is full. */
  tryRestart(): boolean {
    const now = this.clock.now();
    this.restarts = this.restarts.filter((at) => now - at < this.windowMs);
    if (this.restarts.length >= this.max) return false;
    this.restarts.push(now);
    return true;
  }

  /** Restarts counted in the current window. */
  count(): number {
    const now = this.clock.now();
    return this.restarts.filter((at) => now - at < this.windowMs).length;
  }

  /** Forgets history (a deliberate reload of new code starts afresh). */
  reset(): void {
    this.restarts = [];
  }
}
