/**
 * Messages between a sandbox thread and its owner, sent in batches: what one side sends together
 * (a guest's burst of `ctx.emit`, the protocol thread's answers to them) crosses as one
 * `postMessage` carrying an array, in the order it was sent, instead of one crossing each (a
 * wake-up of the other thread and an event dispatch there per message). A batch leaves once the
 * microtasks queued when its first message was sent have run, so nothing waits for a timer or
 * for I/O, and at once when it holds `MAX_BATCH` messages. Measured in bench/README.md (scale.mjs,
 * "The levers of the work").
 */

/** Messages in one crossing at most: a batch is sent as soon as it holds this many. */
export const MAX_BATCH = 256;

/**
 * @example
 * const outbox = new Outbox<FromSandboxThread>((batch) => port.postMessage(batch));
 * outbox.send({ type: "ready" }); // posted as [{type: "ready"}] once the microtasks queued now ran
 */
export class Outbox<T> {
  private pending: T[] = [];
  private scheduled = false;

  constructor(private readonly post: (batch: T[]) => void) {}

  send(message: T): void {
    this.pending.push(message);
    if (this.pending.length >= MAX_BATCH) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Posts what is waiting now (the batch is never empty). */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.post(batch);
  }
}
