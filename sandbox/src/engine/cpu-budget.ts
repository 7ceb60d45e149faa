/**
 * A sandbox's CPU budget: fair sharing of its sandbox thread. Several sandboxes share one thread,
 * and a slice runs to its end once started, so an extension running 950 ms bursts on a timer
 * (each under the 1 s slice limit) would make a neighbour wait ~1 s at every step of its work.
 *
 * Each sandbox may use BUDGET_SLICES × sliceMs of CPU time per WINDOW_SLICES × sliceMs of time
 * (2.5 s per 10 s at the default 1 s: a quarter of its thread). A slice that uses NEAR_LIMIT of
 * its limit or more is an *offence* and is charged one sliceMs more, so repeated near-limit
 * slices spend the budget fast. Past the budget the sandbox is *throttled*: its next slice
 * (timer, reply, invocation) waits until the window has room again; neighbours run meanwhile.
 */

/** The window, in slice limits. */
export const WINDOW_SLICES = 10;
/** CPU time allowed per window, in slice limits. */
export const BUDGET_SLICES = 2.5;
/** Share of the slice limit from which a slice is an offence. */
export const NEAR_LIMIT = 0.75;
/**
 * Charges less than this share of the window apart are kept as one (stamped with the latest), so
 * a sandbox making 30,000 slices a second keeps ~100 entries, not one object per slice. A merged
 * charge leaves the window with its latest part: throttling ends at most that much later, never sooner.
 */
const BUCKET_SHARE = 0.01;

/**
 * @example
 * const budget = new CpuBudget(1000);
 * budget.charge(950);            // an offence: charged 1950 ms
 * const wait = budget.waitMs();  // > 0 once past 2500 ms in the last 10 s
 */
export class CpuBudget {
  private readonly charges: { at: number; ms: number }[] = [];
  private charged = 0;
  offences = 0;

  constructor(
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get windowMs(): number {
    return WINDOW_SLICES * this.sliceMs;
  }

  get budgetMs(): number {
    return BUDGET_SLICES * this.sliceMs;
  }

  /** Charges one slice's CPU time; true when it was an offence. */
  charge(cpuMs: number): boolean {
    const offence = cpuMs >= NEAR_LIMIT * this.sliceMs;
    if (offence) this.offences++;
    const ms = cpuMs + (offence ? this.sliceMs : 0);
    if (ms <= 0) return offence;
    const at = this.now();
    const last = this.charges[this.charges.length - 1];
    if (last && at - last.at < BUCKET_SHARE * this.windowMs) {
      last.at = at;
      last.ms += ms;
    } else {
      this.charges.push({ at, ms });
    }
    this.charged += ms;
    return offence;
  }

  /** How long the next slice must wait for the window to have room: 0 when it may run now. */
  waitMs(): number {
    const now = this.now();
    this.forget(now);
    let excess = this.charged - this.budgetMs;
    if (excess <= 0) return 0;
    for (const { at, ms } of this.charges) {
      excess -= ms;
      if (excess <= 0) return Math.max(1, at + this.windowMs - now);
    }
    return this.windowMs;
  }

  private forget(now: number): void {
    while (this.charges.length && this.charges[0].at + this.windowMs <= now) this.charged -= this.charges.shift()!.ms;
  }
}
