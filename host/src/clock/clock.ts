/**
 * The host's sense of time. Everything that waits (the scheduler, the run timeout) asks a
 * `Clock`, never `Date.now` or `setTimeout` directly, so tests can move time by hand.
 */

/** A pending timer; `cancel()` is idempotent. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, as this clock sees it. */
  now(): number;
  /** Calls `fire` once, `ms` milliseconds from now (or later, never earlier). */
  setTimer(ms: number, fire: () => void): Timer;
}

/**
 * Wall-clock time and Node timers.
 *
 * @example
 * const timer = systemClock.setTimer(1000, () => console.log("a second later"));
 * timer.cancel();
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fire) {
    // Node clamps delays above 2^31-1 ms to 1 ms; chain shorter waits instead.
    const MAX_DELAY = 2_147_483_647;
    let handle: NodeJS.Timeout;
    const due = Date.now() + Math.max(0, ms);
    const arm = () => {
      const left = due - Date.now();
      handle = left > MAX_DELAY ? setTimeout(arm, MAX_DELAY) : setTimeout(fire, Math.max(0, left));
      handle.unref?.();
    };
    arm();
    return { cancel: () => clearTimeout(handle) };
  },
};
