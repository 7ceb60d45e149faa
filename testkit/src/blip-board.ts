/**
 * The blips as the app holds them: `blip.update` shows or replaces one (keeping its place),
 * `blip.end` marks it finished (its state changed when one was given) and, with `dismissAfter`,
 * takes it away that many seconds later on the test's clock; `blip.remove` takes it away now. A
 * blip whose `staleAfter` has passed is drawn as stale.
 */
import type { BlipPayload } from "@svc/api";

export interface BoardBlip {
  payload: BlipPayload;
  /** Set once the extension ended it. */
  ended?: { at: number; state?: string; dismissAt?: number };
}

/**
 * @example
 * const board = new BlipBoard(() => clock.now());
 * board.update(payload);
 * board.end({ id, seq: 2, state: "success", dismissAfter: 30 });
 */
export class BlipBoard {
  private readonly blips = new Map<string, BoardBlip>();

  constructor(private readonly now: () => number) {}

  update(payload: BlipPayload): void {
    this.blips.set(payload.id, { payload });
  }

  end(params: { id: string; seq: number; state?: string; dismissAfter?: number }): void {
    const blip = this.blips.get(params.id);
    if (!blip) return;
    const at = this.now();
    const payload = {
      ...blip.payload,
      seq: params.seq,
      ...(params.state === undefined ? {} : { state: params.state }),
    } as BlipPayload;
    this.blips.set(params.id, {
      payload,
      ended: {
        at,
        ...(params.state === undefined ? {} : { state: params.state }),
        ...(params.dismissAfter === undefined ? {} : { dismissAt: at + params.dismissAfter * 1000 }),
      },
    });
  }

  remove(id: string): void {
    this.blips.delete(id);
  }

  /** The blips on show, in the order they first appeared. */
  list(): BoardBlip[] {
    return [...this.blips.values()];
  }

  get(id: string): BoardBlip | undefined {
    return this.blips.get(id);
  }

  /** The earliest moment an ended blip is dismissed, if any. */
  nextDismissal(): number | undefined {
    let next: number | undefined;
    for (const { ended } of this.blips.values()) {
      if (ended?.dismissAt !== undefined && (next === undefined || ended.dismissAt < next)) next = ended.dismissAt;
    }
    return next;
  }

  /** Takes away every ended blip whose dismiss time has come. */
  dismissDue(): void {
    const now = this.now();
    for (const [id, { ended }] of this.blips)
      if (ended?.dismissAt !== undefined && ended.dismissAt <= now) this.blips.delete(id);
  }

  /** True when the blip's `staleAfter` moment has passed. */
  isStale(id: string): boolean {
    const staleAfter = this.blips.get(id)?.payload.staleAfter;
    return typeof staleAfter === "string" && Date.parse(staleAfter) <= this.now();
  }
}
