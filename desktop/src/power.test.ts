import { describe, expect, it } from "vitest";
import { IDLE_POLL_MS, PauseReasons, wirePower } from "./power.js";
import { FakePowerMonitor } from "./testing/electron-double.js";

function wired() {
  const calls: string[] = [];
  const errors: string[] = [];
  const reasons = new PauseReasons(
    { pause: () => void calls.push("pause"), resume: () => void calls.push("resume") },
    (m) => void errors.push(m),
  );
  const powerMonitor = new FakePowerMonitor();
  let poll: (() => void) | undefined;
  let pollEvery: number | undefined;
  let cleared = false;
  const stop = wirePower({
    powerMonitor,
    reasons,
    onBattery: (on) => void calls.push(on ? "battery" : "mains"),
    setInterval: (callback, ms) => ((poll = callback), (pollEvery = ms), {}),
    clearInterval: () => void (cleared = true),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    calls,
    errors,
    reasons,
    powerMonitor,
    poll: () => poll!(),
    pollEvery: () => pollEvery,
    cleared: () => cleared,
    stop,
    settle,
  };
}

describe("sleep and lock", () => {
  it("pauses on suspend and lock, resumes on wake and unlock", async () => {
    const w = wired();
    w.powerMonitor.emit("lock-screen");
    await w.settle();
    expect(w.calls).toEqual(["pause"]);
    w.powerMonitor.emit("unlock-screen");
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume"]);
    w.powerMonitor.emit("suspend");
    w.powerMonitor.emit("resume");
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume", "pause", "resume"]);
  });

  it("stays paused while any reason holds: waking into the lock screen waits for the unlock", async () => {
    const w = wired();
    w.powerMonitor.emit("lock-screen");
    w.powerMonitor.emit("suspend");
    w.powerMonitor.emit("resume");
    await w.settle();
    expect(w.calls).toEqual(["pause"]);
    expect(w.reasons.paused).toBe(true);
    w.powerMonitor.emit("unlock-screen");
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume"]);
  });

  it("treats another user in front as locked", async () => {
    const w = wired();
    w.powerMonitor.emit("user-did-resign-active");
    w.powerMonitor.emit("user-did-become-active");
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume"]);
  });

  it("asks the idle state every 15 s: a locked screen (or a screen saver) pauses where no event comes", async () => {
    const w = wired();
    expect(w.pollEvery()).toBe(IDLE_POLL_MS);
    w.poll();
    w.powerMonitor.idleState = "idle"; // idle but not locked: runs go on
    w.poll();
    w.powerMonitor.idleState = "locked";
    w.poll();
    w.poll();
    await w.settle();
    expect(w.calls).toEqual(["pause"]);
    w.powerMonitor.idleState = "active";
    w.poll();
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume"]);
  });

  it("keeps the person's own pause (the menu) through a lock and unlock", async () => {
    const w = wired();
    const seen: boolean[] = [];
    w.reasons.onChange((paused) => seen.push(paused));
    w.reasons.set("menu", true);
    w.powerMonitor.emit("lock-screen");
    w.powerMonitor.emit("unlock-screen");
    await w.settle();
    expect(w.calls).toEqual(["pause"]);
    expect(w.reasons.has("menu")).toBe(true);
    w.reasons.set("menu", false);
    await w.settle();
    expect(w.calls).toEqual(["pause", "resume"]);
    expect(seen).toEqual([true, false]);
  });

  it("reports a host that cannot be reached, and carries on", async () => {
    const errors: string[] = [];
    const reasons = new PauseReasons(
      { pause: () => Promise.reject(new Error("svc is not running")), resume: () => {} },
      (m) => void errors.push(m),
    );
    reasons.set("locked", true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual(["could not pause svc: svc is not running"]);
    expect(reasons.paused).toBe(true);
  });

  it("says battery and mains power once per change: on macOS's events, and by asking every 15 s where none come (Linux)", () => {
    const w = wired();
    expect(w.calls).toEqual([]); // mains power at start: nothing to say
    w.powerMonitor.onBattery = true;
    w.powerMonitor.emit("on-battery"); // macOS only
    w.powerMonitor.emit("on-battery");
    expect(w.calls).toEqual(["battery"]);
    w.powerMonitor.onBattery = false;
    w.poll(); // Linux: no on-ac event; the poll sees it
    w.poll();
    expect(w.calls).toEqual(["battery", "mains"]);
    expect(w.pollEvery()).toBe(IDLE_POLL_MS);
  });

  it("stops listening and polling when stopped", () => {
    const w = wired();
    w.stop();
    expect(w.cleared()).toBe(true);
    for (const event of [
      "suspend",
      "resume",
      "lock-screen",
      "unlock-screen",
      "user-did-resign-active",
      "user-did-become-active",
      "on-battery",
      "on-ac",
    ]) {
      expect(w.powerMonitor.listenerCount(event)).toBe(0);
    }
  });
});
