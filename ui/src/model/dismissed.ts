/**
 * List items taken away by a `dismisses` action. The row leaves at the click; it stays out until
 * the blip's update that carries the answer (the `seq` the action's answer names for that blip),
 * or, when the answer names none, until the blip's next update. A failed or timed-out action
 * brings the row back at once.
 */
interface Dismissal {
  /** The blip's seq when the row was dismissed. */
  seqAtPress: number;
  /** Known once the action answered: the seq of the update that holds its result. */
  untilSeq?: number;
  answered: boolean;
}

const key = (blipId: string, itemId: string) => JSON.stringify([blipId, itemId]);

export class DismissedItems {
  private readonly items = new Map<string, Dismissal>();

  dismiss(blipId: string, itemId: string, seqAtPress: number): void {
    this.items.set(key(blipId, itemId), { seqAtPress, answered: false });
  }

  /** The action answered; `emitted` is its blip id → seq map. */
  answered(blipId: string, itemId: string, emitted: Record<string, number>): void {
    const entry = this.items.get(key(blipId, itemId));
    if (!entry) return;
    entry.answered = true;
    if (emitted[blipId] !== undefined) entry.untilSeq = emitted[blipId];
  }

  /** The action failed: the row is back. */
  failed(blipId: string, itemId: string): void {
    this.items.delete(key(blipId, itemId));
  }

  /**
   * A new version of the blip arrived: rows whose wait is over come back (if the update still
   * lists them).
   */
  blipUpdated(blipId: string, seq: number): void {
    for (const [k, entry] of this.items) {
      if ((JSON.parse(k) as string[])[0] !== blipId) continue;
      const done = entry.untilSeq !== undefined ? seq >= entry.untilSeq : entry.answered && seq > entry.seqAtPress;
      if (done) this.items.delete(k);
    }
  }

  isDismissed(blipId: string, itemId: string): boolean {
    return this.items.has(key(blipId, itemId));
  }

  /** The blip is gone: forget its rows. */
  forget(blipId: string): void {
    for (const k of [...this.items.keys()]) if ((JSON.parse(k) as string[])[0] === blipId) this.items.delete(k);
  }
}
