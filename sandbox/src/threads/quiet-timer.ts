/**
 * Calls back once a sandbox thread has been quiet for `idleMs`. A thread reports activity on
 * every message in and out (tens of thousands a second under host calls), so `touch` only counts:
 * the one timer, when it fires, looks whether anything happened since it was armed and, if so,
 * waits another `idleMs`. The callback thus runs after `idleMs` to 2 × `idleMs` of quiet, never less.
 * (Refreshing a Node timer per message cost ~0.5 µs each, two per host call.)
 */
export class QuietTimer {
  private activity = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onQuiet: () => void,
    /** False: the timer does not keep the thread alive. */
    private readonly keepsAlive = true,
  ) {}

  /** Something happened: the quiet period starts again (and the timer, if it was stopped). */
  touch(): void {
    this.activity++;
    if (!this.timer) this.arm();
  }

  /** No callback wanted any more (until the next `touch`). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const seen = this.activity;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.activity === seen) this.onQuiet();
      else this.arm();
    }, this.idleMs);
    if (!this.keepsAlive) this.timer.unref();
  }
}
