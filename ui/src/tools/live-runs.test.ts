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

  it("live: runs at once when idle; while a run is in flight, only the latest input runs after it", async () => {
    const ran: string[] = [];
    const first = deferred<string>();
    const runs = new LiveRuns<string>(() => {}, 10_000);
    runs.live(async () => (ran.push("a"), first.promise));
    for (const text of ["ab", "abc"]) runs.live(async () => (ran.push(text), text));
    expect(ran).toEqual(["a"]);
    first.resolve("a");
    await expect.poll(() => runs.state).toEqual({ running: false, answer: "abc" });
    expect(ran).toEqual(["a", "abc"]);
  });

  it("live: a slow run does not hold the next input back past the debounce", async () => {
    vi.useFakeTimers();
    const ran: string[] = [];
    const runs = new LiveRuns<string>(() => {}, 100);
    runs.live(() => (ran.push("slow"), new Promise<string>(() => {})));
    runs.live(async () => (ran.push("next"), "next"));
    await vi.advanceTimersByTimeAsync(99);
    expect(ran).toEqual(["slow"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(["slow", "next"]);
    expect(runs.state).toEqual({ running: false, answer: "next" });
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
