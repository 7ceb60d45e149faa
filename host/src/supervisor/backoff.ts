/**
 * How long to wait before restarting a runtime that died: doubling from a first delay up to a
 * ceiling, back to the first delay once a runtime has stayed up for a while.
 */
export interface BackoffOptions {
  firstMs: number;
  maxMs: number;
  /** A runtime that lived this long counts as healthy: the next restart waits `firstMs` again. */
  healthyAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { firstMs: 500, maxMs: 30_000, healthyAfterMs: 60_000 };

/**
 * @example
 * const backoff = new RestartBackoff(DEFAULT_BACKOFF);
 * backoff.next(1_000); // 500 (it died after 1 s)
 * backoff.next(1_000); // 1000
 * backoff.next(120_000); // 500 again: it had been healthy
 */
export class RestartBackoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  /** The delay before the next start, given how long the last one lived. */
  next(livedMs: number): number {
    if (livedMs >= this.options.healthyAfterMs) this.failures = 0;
    const delay = Math.min(this.options.maxMs, this.options.firstMs * 2 ** this.failures);
    this.failures++;
    return delay;
  }
}
