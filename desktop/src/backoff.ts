/**
 * How long to wait before trying again after a failure: 1 s, 2 s, 4 s … at most 30 s, back to
 * 1 s once things stayed up for {@link CALM_MS}. A page that crashes as it loads is then loaded
 * again at most twice a minute, not in a tight loop.
 */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** Up this long since the last failure: the next one waits the first delay again. */
export const CALM_MS = 60_000;

export class Backoff {
  private last: number | undefined;
  private delay = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The wait before the next try, for a failure now. */
  next(): number {
    const now = this.now();
    const calm = this.last === undefined || now - this.last >= CALM_MS + this.delay;
    this.delay = calm ? BACKOFF_FIRST_MS : Math.min(this.delay * 2, BACKOFF_MAX_MS);
    this.last = now;
    return this.delay;
  }
}
