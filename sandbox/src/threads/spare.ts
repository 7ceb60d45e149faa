/**
 * One spare prepared instance per sandbox thread, so `create` only binds (see prepared-instance.ts).
 * It is made once the thread has had no message in or out for SPARE_IDLE_MS (so a cold start's
 * `load` and first `update` do not queue behind it), used by at most one sandbox, and made again
 * only after being taken: an idle pool does no work at all (one timer, armed after activity,
 * none once the spare is made).
 */
import type { PreparedInstance } from "../engine/prepared-instance.js";
import { QuietTimer } from "./quiet-timer.js";

/** Quiet time on the thread before the spare is made, in ms. */
export const SPARE_IDLE_MS = 50;

/**
 * @example
 * const spare = new SpareKeeper(() => prepareInstance({ memoryBytes }), memoryBytes);
 * spare.active(); // after each message
 * const prepared = spare.take(limits.memoryBytes, timeZone); // or undefined: make one
 */
export class SpareKeeper {
  private ready: PreparedInstance | undefined;
  private making = false;
  private readonly quiet: QuietTimer;

  constructor(
    /** Makes one for the thread's current time zone (it may change: `renew`). */
    private readonly make: () => Promise<PreparedInstance>,
    private readonly memoryBytes: number,
    idleMs = SPARE_IDLE_MS,
  ) {
    this.quiet = new QuietTimer(idleMs, () => void this.fill(), false);
  }

  /** Something happened on the thread: (re)start the quiet period if a spare is wanted. */
  active(): void {
    if (this.ready || this.making) return;
    this.quiet.touch();
  }

  /**
   * The spare, if one is ready and made for this memory cap and time zone; it is never handed out
   * twice. One made for another zone (the pool's settings changed meanwhile) is freed, and made
   * again once the thread is quiet.
   */
  take(memoryBytes: number, timeZone: string | undefined): PreparedInstance | undefined {
    if (!this.ready || memoryBytes !== this.memoryBytes) return undefined;
    const spare = this.ready;
    this.ready = undefined;
    if (spare.timeZone === timeZone) return spare;
    spare.dispose();
    return undefined;
  }

  /** The thread's time zone changed: a spare made for another is replaced now. */
  renew(timeZone: string | undefined): Promise<void> {
    if (this.ready && this.ready.timeZone !== timeZone) {
      this.ready.dispose();
      this.ready = undefined;
    }
    return this.fill();
  }

  /** True while a spare waits to be taken. */
  get hasSpare(): boolean {
    return this.ready !== undefined;
  }

  /** Makes the spare now (a sandbox thread starting: its first create should find one). */
  fill(): Promise<void> {
    this.quiet.stop();
    if (this.ready || this.making) return Promise.resolve();
    this.making = true;
    return this.make().then(
      (prepared) => {
        this.making = false;
        this.ready = prepared;
      },
      () => {
        // Creating a sandbox fails the same way and says why; no spare meanwhile.
        this.making = false;
      },
    );
  }
}
