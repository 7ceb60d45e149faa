import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { TimerOps } from "./timer-ops.js";
import { InvocationOwners } from "./invocation-owners.js";
import { MAX_TIMERS, TIMER_FIRINGS_BURST, TIMER_FIRINGS_PER_SECOND } from "../limits.js";

/** A clock that moves only when told, firing what falls due in time order. */
class StepClock {
  time = 0;
  private seq = 0;
  private readonly timers = new Map<number, { due: number; callback: () => void }>();

  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    this.timers.set(++this.seq, { due: this.time + ms, callback });
    return this.seq;
  };
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);

  /** Moves to `to`, firing every timer due by then at its own moment. */
  advance(to: number): void {
    for (;;) {
      const next = [...this.timers.entries()]
        .filter(([, t]) => t.due <= to)
        .sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].due;
      next[1].callback();
    }
    this.time = to;
  }
}

/** Lets the promise jobs of fired timers run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup() {
  const clock = new StepClock();
  const dropped: number[] = [];
  const timers = new TimerOps((callId) => dropped.push(callId), clock);
  const fired: number[] = [];
  const arm = (id: number, ms = 0, signal?: AbortSignal): void =>
    void timers.sleep(id, ms, id, signal).then(() => fired.push(id));
  return { clock, timers, fired, dropped, arm };
}

describe("TimerOps: firing budget", () => {
  it(`${TIMER_FIRINGS_BURST} timers due at once (the burst) all fire at once; none waits`, async () => {
    const { clock, timers, fired, arm } = setup();
    for (let id = 1; id <= MAX_TIMERS; id++) arm(id);
    clock.advance(0);
    await settle();
    expect(fired).toHaveLength(TIMER_FIRINGS_BURST);
    expect(timers.delayed).toBe(0);
  });

  it("one firing past the budget waits for it, fires late (never dropped), and timers keep the order they fell due in", async () => {
    const { clock, timers, fired, arm } = setup();
    for (let id = 1; id <= MAX_TIMERS; id++) arm(id);
    clock.advance(0);
    await settle();
    arm(5001, 0);
    arm(5002, 0);
    clock.advance(0);
    await settle();
    expect(fired).toHaveLength(MAX_TIMERS);
    expect(timers.delayed).toBe(2);
    // The budget refills one firing a ms; waiting timers are let go 10 ms at a time.
    clock.advance(9);
    await settle();
    expect(fired).toHaveLength(MAX_TIMERS);
    clock.advance(10);
    await settle();
    expect(fired.slice(MAX_TIMERS)).toEqual([5001, 5002]);
    expect(timers.size).toBe(0);
  });

  it(`a flood of re-armed 0 ms timers fires ${TIMER_FIRINGS_PER_SECOND} times a second after the burst, spread over all of them`, async () => {
    const { clock, timers, fired } = setup();
    const chains = 100;
    const rearm = (id: number): void =>
      void timers.sleep(id, 0, id).then(() => {
        fired.push(id);
        rearm(id);
      });
    for (let id = 1; id <= chains; id++) rearm(id);
    for (let t = 0; t <= 2000; t++) {
      clock.advance(t);
      await settle();
    }
    // The burst, then the rate (give or take the firings let go in the last 10 ms).
    expect(fired.length).toBeGreaterThanOrEqual(TIMER_FIRINGS_BURST + 2 * TIMER_FIRINGS_PER_SECOND - 10);
    expect(fired.length).toBeLessThanOrEqual(TIMER_FIRINGS_BURST + 2 * TIMER_FIRINGS_PER_SECOND);
    const perChain = new Map<number, number>();
    for (const id of fired) perChain.set(id, (perChain.get(id) ?? 0) + 1);
    expect(perChain.size).toBe(chains);
    expect(Math.max(...perChain.values()) - Math.min(...perChain.values())).toBeLessThanOrEqual(1);
  });

  it("a timer cancelled while it waits for the budget never fires and its answer is dropped", async () => {
    const { clock, timers, fired, dropped, arm } = setup();
    for (let id = 1; id <= MAX_TIMERS; id++) arm(id);
    clock.advance(0);
    await settle();
    arm(7001);
    clock.advance(0);
    timers.cancel(7001);
    clock.advance(100);
    await settle();
    expect(fired).not.toContain(7001);
    expect(dropped).toEqual([7001]);
    expect(timers.size).toBe(0);
  });

  it("a fired or cancelled timer leaves no listener on its invocation's signal", async () => {
    const { clock, timers, arm } = setup();
    const owners = new InvocationOwners(); // the invocation's signal, as the sandbox makes it
    owners.begin(1);
    const signal = owners.within(1, () => owners.adoptAbortable(1))!;
    for (let id = 1; id <= 50; id++) arm(id, 0, signal);
    arm(99, 60_000, signal);
    expect(getEventListeners(signal, "abort")).toHaveLength(51);
    clock.advance(0);
    await settle();
    timers.cancel(99);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
