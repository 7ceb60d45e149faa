/**
 * Runs of one open tool: each gets a number, and an answer is shown only when it belongs to the
 * newest run, so a slow stale answer never replaces a newer one. Live tools wait for the typing
 * to pause (the debounce) before they run. Cancel forgets the run in flight and aborts its
 * request; the run itself finishes in the extension (the protocol has no way to stop it).
 */
export interface RunState<T> {
  running: boolean;
  answer?: T;
  error?: string;
}

export class LiveRuns<T> {
  private latest = 0;
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
    try {
      const answer = await work(controller.signal);
      if (mine === this.latest) this.state = { running: false, answer };
    } catch (error) {
      if (mine === this.latest) this.state = { running: false, error: (error as Error).message };
    }
    if (mine === this.latest) this.changed();
  }

  /** A live tool's input changed: runs once the typing pauses. */
  debounce(work: (signal: AbortSignal) => Promise<T>): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(work), this.debounceMs);
  }

  /** Stops waiting for the run in flight; a later answer to it is ignored. */
  cancel(): void {
    clearTimeout(this.timer);
    this.controller?.abort();
    this.latest++;
    this.state = { ...this.state, running: false, error: "Cancelled." };
    this.changed();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.controller?.abort();
    this.latest++;
  }
}
