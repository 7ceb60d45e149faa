/**
 * Messages between a sandbox thread and its owner. The first message of a turn crosses at once (a
 * host call the guest awaits pays no wait and no wrapping: batching it cost ~7 % of a host call);
 * what follows in the same turn (a guest's burst of `ctx.emit`, the protocol thread's answers to
 * them) crosses as one `postMessage` carrying an array, in the order it was sent, instead of one
 * crossing each (a wake-up of the other thread and an event dispatch there per message). A batch
 * leaves once the microtasks queued when the turn's first message was sent have run, so nothing
 * waits for a timer or for I/O, and at once when it holds `MAX_BATCH` messages. Measured in
 * bench/README.md (scale.mjs, "The levers of the work").
 */

/** Messages in one crossing at most: a batch is sent as soon as it holds this many. */
export const MAX_BATCH = 256;

/** What one `postMessage` carries: one message, or a batch of them (messages are never arrays). */
export type Crossing<T> = T | T[];

/** Hands each message of a crossing to `handle`, in order. */
export function unpack<T extends object>(crossing: Crossing<T>, handle: (message: T) => void): void {
  if (!Array.isArray(crossing)) return handle(crossing);
  for (const message of crossing) handle(message);
}

/**
 * @example
 * const outbox = new Outbox<FromSandboxThread>((crossing) => port.postMessage(crossing));
 * outbox.send({ type: "ready" }); // posted at once
 * outbox.send({ type: "event", sid, event }); // posted with the rest of this turn's, as a batch
 */
export class Outbox<T> {
  private pending: T[] = [];
  /** A message crossed at once in this turn: the rest wait for the batch. */
  private inTurn = false;

  constructor(private readonly post: (crossing: Crossing<T>) => void) {}

  send(message: T): void {
    if (!this.inTurn) {
      this.inTurn = true;
      queueMicrotask(() => {
        this.inTurn = false;
        this.flush();
      });
      this.post(message);
      return;
    }
    this.pending.push(message);
    if (this.pending.length >= MAX_BATCH) this.flush();
  }

  /** Posts what is waiting now (one message alone, more as a batch). */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.post(batch.length === 1 ? batch[0] : batch);
  }
}
