import { describe, expect, it } from "vitest";
import { act, finishIfDue, READY } from "./session.js";

const NOW = Date.parse("2030-01-02T10:00:00Z");
const LENGTH = 25 * 60_000;

describe("focus session", () => {
  it("starts, pauses with the time left, resumes and stops", () => {
    const running = act(READY, "start", NOW, LENGTH);
    expect(running).toMatchObject({
      phase: "running",
      startedAt: NOW,
      endsAt: NOW + LENGTH,
      day: "2030-01-02",
      done: 0,
    });
    const paused = act(running, "pause", NOW + 60_000, LENGTH);
    expect(paused).toMatchObject({ phase: "paused", leftMs: LENGTH - 60_000 });
    const resumed = act(paused, "start", NOW + 120_000, LENGTH);
    expect(resumed).toMatchObject({ phase: "running", endsAt: NOW + 120_000 + LENGTH - 60_000 });
    expect(act(resumed, "stop", NOW + 130_000, LENGTH)).toEqual({ phase: "ready", done: 0, day: "2030-01-02" });
  });

  it("finishes a session whose time is up, counting it", () => {
    const running = act(READY, "start", NOW, LENGTH);
    expect(finishIfDue(running, NOW + LENGTH - 1).finished).toBe(false);
    const { session, finished } = finishIfDue(running, NOW + LENGTH);
    expect(finished).toBe(true);
    expect(session).toEqual({ phase: "ready", done: 1, day: "2030-01-02" });
  });

  it("starts a new day's count at zero", () => {
    const yesterday = { phase: "ready" as const, done: 4, day: "2030-01-01" };
    expect(act(yesterday, "start", NOW, LENGTH).done).toBe(0);
  });
});
