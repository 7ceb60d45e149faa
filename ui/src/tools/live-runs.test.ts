import { describe, expect, it, vi } from "vitest";
import { LiveRuns } from "./live-runs.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("LiveRuns", () => {
  it("never lets a stale answer replace a newer one", async () => {
    const runs = new LiveRuns<string>(() => {});
    const slow = deferred<string>();
    const first = runs.run(() => slow.promise);
    await runs.run(async () => "new");
    slow.resolve("old");
    await first;
    expect(runs.state).toEqual({ running: false, answer: "new" });
  });

  it("debounces live runs: only the last input in a burst runs", async () => {
    vi.useFakeTimers();
    const ran: string[] = [];
    const runs = new LiveRuns<string>(() => {}, 100);
    for (const text of ["a", "ab", "abc"]) runs.debounce(async () => (ran.push(text), text));
    await vi.advanceTimersByTimeAsync(99);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(["abc"]);
    vi.useRealTimers();
  });

  it("cancel aborts the request, says so, and ignores its answer", async () => {
    const runs = new LiveRuns<string>(() => {});
    const slow = deferred<string>();
    let aborted = false;
    const pending = runs.run((signal) => {
      signal.addEventListener("abort", () => (aborted = true));
      return slow.promise;
    });
    expect(runs.state.running).toBe(true);
    runs.cancel();
    slow.resolve("late");
    await pending;
    expect(aborted).toBe(true);
    expect(runs.state).toEqual({ running: false, error: "Cancelled." });
  });
});
