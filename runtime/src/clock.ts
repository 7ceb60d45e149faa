/** The runtime's clock for time windows (crash restarts). Tests move it with `test.advanceClock`. */
export interface Clock {
  now(): number;
}

/**
 * Wall-clock time plus an offset that only moves forward.
 *
 * @example
 * const clock = new OffsetClock();
 * clock.advance(5 * 60_000); // five minutes later, as far as the restart window can tell
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }
}
