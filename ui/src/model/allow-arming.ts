/**
 * An agent's file request takes no Allow for its first `ALLOW_ARM_MS`. An agent can withdraw a
 * request and ask another at once, so the new one is drawn where the pointer already rests: a
 * click aimed at the first request's Allow would allow the second (click-jacking). So each request
 * waits from the moment it is shown **at its place**: a new request, or one that moved (the one
 * above it went away), starts its wait again. The clock is given, so tests drive it.
 */

/** How long a request's Allow takes no click after it appears or moves. */
export const ALLOW_ARM_MS = 500;

export class AllowArming {
  /** Each shown request's place in the list and when it took that place. */
  private readonly shown = new Map<string, { index: number; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly armMs = ALLOW_ARM_MS,
  ) {}

  /** The waiting requests now, in the order drawn (ids). */
  update(ids: readonly string[]): void {
    const at = this.now();
    for (const id of this.shown.keys()) if (!ids.includes(id)) this.shown.delete(id);
    ids.forEach((id, index) => {
      if (this.shown.get(id)?.index !== index) this.shown.set(id, { index, at });
    });
  }

  /** Milliseconds until `id`'s Allow takes a click: 0 once it does (and for an id not shown: nothing to allow). */
  waitLeft(id: string): number {
    const entry = this.shown.get(id);
    if (!entry) return this.armMs;
    return Math.max(0, entry.at + this.armMs - this.now());
  }

  /** The soonest a waiting Allow takes a click, in ms, or undefined when none waits. */
  nextArming(): number | undefined {
    const waits = [...this.shown.keys()].map((id) => this.waitLeft(id)).filter((ms) => ms > 0);
    return waits.length ? Math.min(...waits) : undefined;
  }
}
