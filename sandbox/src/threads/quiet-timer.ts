/**
 * Calls back once a sandbox thread has been quiet for `idleMs`. A thread reports activity on
 * every message in and out (tens of thousands a second under host calls), so `touch` only notes
 * the time: the one timer, when it fires, looks when the last touch was and, if it was less than
 * `idleMs` ago, waits for the rest. (Refreshing a Node timer per message cost ~0.5 µs each, two
 * per host call.)
 */
export class QuietTimer {
  private lastTouch = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onQuiet: () => void,
    /** False: the timer does not keep the thread alive. */
    private readonly keepsAlive = true,
  ) {}

  /** Something happened: the quiet period starts again (and the timer, if it was stopped). */
  touch(): void {
    this.lastTouch = performance.now();
    if (!this.timer) this.arm(this.idleMs);
  }

  /** No callback wanted any more (until the next `touch`). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const left = this.idleMs - (performance.now() - this.lastTouch);
      if (left > 0) this.arm(Math.ceil(left));
      else this.onQuiet();
    }, ms);
    if (!this.keepsAlive) this.timer.unref();
  }
}
