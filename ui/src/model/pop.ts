/**
 * When a blip changes state, the collapsed notch pops open for a moment — bounded, so a stranger's
 * every update never keeps the notch jumping:
 * - only a change of `state` (running → success), never a new figure, and never a blip's first show;
 * - only for extensions the person let pop (`mayPop` in the app's settings; unset, bundled
 *   extensions may and installed ones may not: `mayPop` below);
 * - at most once per `POP_EVERY_MS`, whoever asks, and for `POP_FOR_MS`.
 */
export const POP_EVERY_MS = 30_000;
export const POP_FOR_MS = 4_000;

/** Whether this extension may pop the notch: the person's choice, else yes only for bundled ones. */
export function mayPop(
  choices: Readonly<Record<string, boolean>> | undefined,
  ext: { id: string; source: string },
): boolean {
  const chosen = choices?.[ext.id];
  return chosen ?? ext.source === "bundled";
}

export class PopGate {
  private last = Number.NEGATIVE_INFINITY;

  /**
   * True when `next` should pop the notch now (and then the gate closes for `POP_EVERY_MS`).
   * `previousState` is undefined for a blip seen for the first time.
   *
   * @example
   * gate.consider({ previousState: "running", state: "success", allowed: true, now: 0 }) // true
   * gate.consider({ previousState: "success", state: "failure", allowed: true, now: 29_999 }) // false: too soon
   */
  consider(change: {
    previousState: unknown;
    hadBlip: boolean;
    state: unknown;
    allowed: boolean;
    now: number;
  }): boolean {
    if (!change.hadBlip || !change.allowed || change.previousState === change.state) return false;
    if (change.now - this.last < POP_EVERY_MS) return false;
    this.last = change.now;
    return true;
  }
}
