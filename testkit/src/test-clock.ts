/**
 * The test's view of the manual clock: read it, or move it (the test extension runs everything
 * that falls due on the way).
 */
import { toMilliseconds } from "./duration.js";
import type { ManualClock } from "./manual-clock.js";

/** A moment as tests give it: a Date, an ISO string or epoch ms. */
export function momentOf(moment: Date | string | number, what = "now"): number {
  const ms = moment instanceof Date ? moment.getTime() : typeof moment === "string" ? Date.parse(moment) : moment;
  if (!Number.isFinite(ms))
    throw new RangeError(`${what}: ${JSON.stringify(moment)} is not a moment; give a Date, an ISO string or epoch ms`);
  return ms;
}

/** The test's clock: read it, or move it (which runs everything that falls due on the way). */
export class TestClock {
  constructor(
    private readonly manual: ManualClock,
    private readonly move: (ms: number) => Promise<void>,
  ) {}

  /** Epoch ms. */
  now(): number {
    return this.manual.now();
  }

  /** Now, as an ISO string. */
  iso(): string {
    return new Date(this.manual.now()).toISOString();
  }

  /** Moves time on by `"5m"`, `"1h30m"`, `"250ms"` or a number of ms, firing what falls due in order. */
  advance(span: string | number): Promise<void> {
    return this.move(toMilliseconds(span));
  }

  /** Moves time on to a moment (never backwards). */
  advanceTo(moment: Date | string | number): Promise<void> {
    const target = momentOf(moment, "advanceTo");
    if (target < this.manual.now())
      throw new RangeError(
        `the clock only moves forward: ${new Date(target).toISOString()} is before now (${this.iso()})`,
      );
    return this.move(target - this.manual.now());
  }
}
