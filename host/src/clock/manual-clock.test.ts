import { describe, expect, it } from "vitest";
import { ManualClock } from "./manual-clock.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("ManualClock", () => {
  it("fires timers in order with now() at each one's time", () => {
    const clock = new ManualClock(1000);
    const fired: [string, number][] = [];
    clock.setTimer(300, () => fired.push(["b", clock.now()]));
    clock.setTimer(100, () => {
      fired.push(["a", clock.now()]);
      clock.setTimer(50, () => fired.push(["a2", clock.now()]));
    });
    clock.advance(299);
    expect(fired).toEqual([
      ["a", 1100],
      ["a2", 1150],
    ]);
    clock.advance(1);
    expect(fired).toEqual([
      ["a", 1100],
      ["a2", 1150],
      ["b", 1300],
    ]);
    expect(clock.now()).toBe(1300);
  });

  it("never fires a cancelled timer", () => {
    const clock = new ManualClock(0);
    let fired = false;
    clock.setTimer(10, () => (fired = true)).cancel();
    clock.advance(100);
    expect(fired).toBe(false);
    expect(clock.timerCount).toBe(0);
  });

  it("fires a timer due now on its own, once", async () => {
    const clock = new ManualClock(0);
    let count = 0;
    clock.setTimer(0, () => count++);
    expect(count).toBe(0);
    await tick();
    expect(count).toBe(1);
    clock.advance(0);
    await tick();
    expect(count).toBe(1);
    expect(clock.now()).toBe(0);
  });
});
