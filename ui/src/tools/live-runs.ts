/**
 * Runs of one open tool: each gets a number, and an answer is shown only when it belongs to the
 * newest run, so a slow stale answer never replaces a newer one. A live tool runs at once when
 * nothing is in flight (so a keystroke's result comes as fast as the tool answers); while a run
 * is in flight, inputs are coalesced: the latest runs when it ends, or after `debounceMs` if it
 * is slow. Cancel forgets the run in flight and aborts its request; the run itself finishes in
 * the extension (the protocol has no way to stop it).
 */
export interface RunState<T> {
  running: boolean;
  answer?: T;
  error?: string;
}

export class LiveRuns<T> {
  private latest = 0;
  private inFlight = 0;
  private pending: ((signal: AbortSignal) => Promise<T>) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | undefined;
  state: RunState<T> = { running: false };

  constructor(
    private readonly changed: () => void,
    private readonly debounceMs = 120,
  ) {}

  /** Runs `work` now; its answer counts only if no newer run started meanwhile. */
  async run(work: (signal: AbortSignal) => Promise<T>): Promise<void> {
    clearTimeout(this.timer);
    this.controller?.abort();
    const mine = ++this.latest;
    const controller = new AbortController();
    this.controller = controller;
    this.state = { ...this.state, running: true, error: undefined };
    this.changed();
    this.inFlight++;
    try {
      const answer = await work(controller.signal);
      if (mine === this.latest) this.state = { running: false, answer };
    } catch (error) {
      if (mine === this.latest) this.state = { running: false, error: (error as Error).message };
    } finally {
      this.inFlight--;
    }
    if (mine === this.latest) this.changed();
    if (this.inFlight === 0 && this.pending) this.flush();
  }

  /** A live tool's input changed: runs now when idle, else coalesced with the inputs after it. */
  live(work: (signal: AbortSignal) => Promise<T>): void {
    this.pending = work;
    if (this.inFlight === 0) return this.flush();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    const work = this.pending;
    this.pending = undefined;
    if (work) void this.run(work);
  }

  /** Stops waiting for the run in flight; a later answer to it is ignored. */
  cancel(): void {
    clearTimeout(this.timer);
    this.pending = undefined;
    this.controller?.abort();
    this.latest++;
    this.state = { ...this.state, running: false, error: "Cancelled." };
    this.changed();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.pending = undefined;
    this.controller?.abort();
    this.latest++;
  }
}
