/**
 * `notify` lines under the notch: one at a time, each shown for `showMs`, the next one after it.
 * The clock and the timer are given, so tests drive time by hand.
 */
export interface NotifyLine {
  extensionId?: string;
  title: string;
  body?: string;
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const NOTIFY_SHOW_MS = 5000;
/** Lines waiting beyond this are dropped (the oldest first): a chatty extension cannot queue forever. */
export const NOTIFY_QUEUE_MAX = 5;

export class NotifyQueue {
  private readonly waiting: NotifyLine[] = [];
  private shown: NotifyLine | undefined;
  private timer: unknown;

  constructor(
    private readonly onChange: (line: NotifyLine | undefined) => void,
    private readonly timers: Timers,
    private readonly showMs = NOTIFY_SHOW_MS,
  ) {}

  get current(): NotifyLine | undefined {
    return this.shown;
  }

  push(line: NotifyLine): void {
    this.waiting.push(line);
    if (this.waiting.length > NOTIFY_QUEUE_MAX) this.waiting.shift();
    if (!this.shown) this.next();
  }

  /** The person closed the line: the next one shows. */
  dismiss(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.next();
  }

  private next(): void {
    this.timer = undefined;
    this.shown = this.waiting.shift();
    this.onChange(this.shown);
    if (this.shown) this.timer = this.timers.set(() => this.next(), this.showMs);
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
  }
}
