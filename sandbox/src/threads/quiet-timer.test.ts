import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QuietTimer } from "./quiet-timer.js";

describe("QuietTimer (50 ms)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] }));
  afterEach(() => vi.useRealTimers());

  it("calls back once, 50 ms after a touch when nothing else happened", () => {
    const quiet = vi.fn();
    const timer = new QuietTimer(50, quiet);
    timer.touch();
    vi.advanceTimersByTime(49);
    expect(quiet).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(quiet).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(quiet).toHaveBeenCalledTimes(1); // nothing armed until the next touch
  });

  it("calls back 50 ms after the last of many touches, never sooner", () => {
    let firedAt = -1;
    const timer = new QuietTimer(50, () => (firedAt = Date.now()));
    for (let t = 0; t < 500; t++) {
      timer.touch(); // a busy thread: a message every ms for half a second
      vi.advanceTimersByTime(1);
    }
    const lastTouch = Date.now() - 1;
    vi.advanceTimersByTime(48);
    expect(firedAt).toBe(-1); // 49 ms after the last touch
    vi.advanceTimersByTime(100);
    expect(firedAt - lastTouch).toBeGreaterThanOrEqual(50);
    expect(firedAt - lastTouch).toBeLessThanOrEqual(51);
  });

  it("stop cancels the callback; a later touch arms it again", () => {
    const quiet = vi.fn();
    const timer = new QuietTimer(50, quiet);
    timer.touch();
    timer.stop();
    vi.advanceTimersByTime(200);
    expect(quiet).not.toHaveBeenCalled();
    timer.touch();
    vi.advanceTimersByTime(50);
    expect(quiet).toHaveBeenCalledTimes(1);
  });
});
