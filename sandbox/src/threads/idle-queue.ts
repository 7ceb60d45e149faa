/**
 * Work a sandbox thread does only when it is quiet: each job waits until the thread has had no
 * message in or out for `idleMs`, so it never delays a cold start's load or first update.
 */
import { QuietTimer } from "./quiet-timer.js";

export class IdleQueue {
  private readonly jobs: (() => Promise<void>)[] = [];
  private running = false;
  private readonly quiet: QuietTimer;

  constructor(idleMs: number) {
    this.quiet = new QuietTimer(idleMs, () => void this.next());
  }

  /** Runs `job` once the thread is quiet; resolves with its result. */
  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => job().then(resolve, reject));
      this.active();
    });
  }

  /** Jobs waiting or running. */
  get size(): number {
    return this.jobs.length + (this.running ? 1 : 0);
  }

  /** Something happened on the thread: (re)start the quiet period if work is waiting. */
  active(): void {
    if (this.running || this.jobs.length === 0) return;
    this.quiet.touch();
  }

  private async next(): Promise<void> {
    const job = this.jobs.shift();
    if (!job) return;
    this.running = true;
    try {
      await job();
    } finally {
      this.running = false;
      this.active();
    }
  }
}
