import { describe, expect, it } from "vitest";
import { OffsetClock } from "./clock.js";
import { MAX_RESTARTS, RESTART_WINDOW_MS, RestartWindow } from "./restart-policy.js";

describe("RestartWindow", () => {
  it("allows 3 restarts in 5 minutes, refuses the 4th, and allows again once the oldest leaves the window", () => {
    const clock = new OffsetClock(() => 0);
    const window = new RestartWindow(clock);
    expect([window.tryRestart(), window.tryRestart(), window.tryRestart()]).toEqual([true, true, true]);
    expect(window.tryRestart()).toBe(false);
    expect(window.count()).toBe(MAX_RESTARTS);
    clock.advance(RESTART_WINDOW_MS - 1);
    expect(window.tryRestart()).toBe(false);
    clock.advance(1);
    expect(window.tryRestart()).toBe(true);
  });

  it("forgets its history on reset", () => {
    const window = new RestartWindow(new OffsetClock(() => 0));
    for (let i = 0; i < 3; i++) window.tryRestart();
    window.reset();
    expect(window.tryRestart()).toBe(true);
  });
});
