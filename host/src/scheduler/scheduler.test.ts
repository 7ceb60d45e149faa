import { describe, expect, it } from "vitest";
import { ManualClock } from "../clock/index.js";
import { Scheduler, type RunOutcome, type RunReport, type RunTrigger } from "./scheduler.js";
import {
  MIN_NEXT_RUN_AFTER_MS,
  RUN_TIMEOUT_MS,
  WAKE_SPREAD_MS,
  WAKE_STEP_MS,
  parseInterval,
  stretchWait,
  toleranceFor,
  wakeOffset,
} from "./rules.js";
import { pickWakeUp } from "./wake-up.js";

const T0 = 1_000_000;

/** Lets every pending promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Started {
  id: string;
  trigger: RunTrigger;
  at: number;
  settle(outcome?: RunOutcome): void;
  fail(message: string): void;
}

function harness(options: { autoSettle?: RunOutcome | ((id: string) => RunOutcome) } = {}) {
  const clock = new ManualClock(T0);
  const started: Started[] = [];
  const ended: RunReport[] = [];
  let overlapping = 0;
  const active = new Set<string>();
  const scheduler = new Scheduler({
    clock,
    run(id, trigger) {
      if (active.has(id)) overlapping++;
      active.add(id);
      return new Promise<RunOutcome>((resolve, reject) => {
        const done = () => active.delete(id);
        const entry: Started = {
          id,
          trigger,
          at: clock.now(),
          settle: (outcome = {}) => (done(), resolve(outcome)),
          fail: (message) => (done(), reject(new Error(message))),
        };
        started.push(entry);
        const auto = options.autoSettle;
        if (auto) entry.settle(typeof auto === "function" ? auto(id) : auto);
      });
    },
    onRunEnd: (report) => ended.push(report),
  });
  const advance = async (ms: number) => {
    clock.advance(ms);
    await flush();
  };
  const runs = (id?: string) =>
    started.filter((s) => id === undefined || s.id === id).map((s) => [s.trigger, s.at - T0]);
  return { clock, scheduler, started, ended, advance, runs, overlapping: () => overlapping };
}

describe("rules", () => {
  it("reads intervals in s, m and h with a 10 s minimum", () => {
    expect(parseInterval("10s")).toBe(10_000);
    expect(parseInterval("9s")).toBeUndefined();
    expect(parseInterval("5m")).toBe(300_000);
    expect(parseInterval("2h")).toBe(7_200_000);
    expect(parseInterval("0m")).toBeUndefined();
    expect(parseInterval("10")).toBeUndefined();
    expect(parseInterval(10)).toBeUndefined();
  });

  it("allows 10% lateness, at most one minute", () => {
    expect(toleranceFor(10_000)).toBe(1_000);
    expect(toleranceFor(600_000)).toBe(60_000);
    expect(toleranceFor(3_600_000)).toBe(60_000);
  });
});

describe("pickWakeUp", () => {
  it("wakes a lone window on time", () => {
    expect(pickWakeUp([{ at: 100, toleranceMs: 10 }])).toBe(100);
    expect(pickWakeUp([])).toBeUndefined();
  });

  it("gathers a window that starts inside the first one's tolerance", () => {
    expect(
      pickWakeUp([
        { at: 105, toleranceMs: 6 },
        { at: 100, toleranceMs: 10 },
      ]),
    ).toBe(105);
    expect(
      pickWakeUp([
        { at: 100, toleranceMs: 10 },
        { at: 110, toleranceMs: 6 },
      ]),
    ).toBe(110);
  });

  it("leaves a window that starts past the tolerance", () => {
    expect(
      pickWakeUp([
        { at: 100, toleranceMs: 10 },
        { at: 111, toleranceMs: 6 },
      ]),
    ).toBe(100);
  });

  it("never passes the tightest deadline gathered so far", () => {
    // 100..110, then 101..102: the third window at 103 would make the second one late.
    expect(
      pickWakeUp([
        { at: 100, toleranceMs: 10 },
        { at: 101, toleranceMs: 1 },
        { at: 103, toleranceMs: 50 },
      ]),
    ).toBe(101);
  });
});

describe("Scheduler", () => {
  it("runs at launch, then every interval counted from the end of the last run", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    expect(h.runs()).toEqual([["launch", 0]]);
    await h.advance(9_999);
    expect(h.runs()).toHaveLength(1);
    await h.advance(1);
    await h.advance(10_000);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["interval", 10_000],
      ["interval", 20_000],
    ]);
  });

  it("runs an extension without interval at launch only", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a");
    await h.advance(0);
    await h.advance(3_600_000);
    expect(h.runs()).toEqual([["launch", 0]]);
    expect(h.scheduler.nextRunAt("a")).toBeUndefined();
  });

  it("coalesces two extensions due within the tolerance into one wake-up", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 100_000 }); // tolerance 10 s
    await h.advance(0);
    await h.advance(5_000);
    h.scheduler.add("b", { intervalMs: 100_000 });
    await h.advance(0);
    // a is due at 100 s, b at 105 s: both run at 105 s, a 5 s late (inside its 10 s).
    await h.advance(95_000);
    expect(h.runs("a")).toEqual([["launch", 0]]);
    await h.advance(4_999);
    expect(h.runs("a")).toEqual([["launch", 0]]);
    await h.advance(1);
    expect(h.runs("a")).toEqual([
      ["launch", 0],
      ["interval", 105_000],
    ]);
    expect(h.runs("b")).toEqual([
      ["launch", 5_000],
      ["interval", 105_000],
    ]);
  });

  it("does not coalesce when the later run is due past the tolerance", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 100_000 }); // due 100 s, tolerance 10 s
    await h.advance(0);
    await h.advance(10_001);
    h.scheduler.add("b", { intervalMs: 100_000 }); // due 110.001 s
    await h.advance(0);
    await h.advance(89_999);
    await h.advance(10_001);
    expect(h.runs("a")).toEqual([
      ["launch", 0],
      ["interval", 100_000],
    ]);
    expect(h.runs("b")).toEqual([
      ["launch", 10_001],
      ["interval", 110_001],
    ]);
  });

  it("uses nextRunAfter for the next run only", async () => {
    let answer: RunOutcome = { nextRunAfter: 60 };
    const h = harness({ autoSettle: () => answer });
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    answer = {};
    await h.advance(59_999);
    expect(h.runs()).toHaveLength(1);
    await h.advance(1);
    await h.advance(10_000);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["interval", 60_000],
      ["interval", 70_000],
    ]);
  });

  it("waits at least one second after nextRunAfter 0", async () => {
    let answer: RunOutcome = { nextRunAfter: 0 };
    const h = harness({ autoSettle: () => answer });
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    answer = {};
    await h.advance(MIN_NEXT_RUN_AFTER_MS - 1);
    expect(h.runs()).toHaveLength(1);
    await h.advance(1);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["interval", 1_000],
    ]);
  });

  it("cuts a longer wait back to the interval on a webhook event", async () => {
    const h = harness({ autoSettle: { nextRunAfter: 3_600 } });
    h.scheduler.add("a", { intervalMs: 30_000 });
    await h.advance(0);
    expect(h.scheduler.nextRunAt("a")).toBe(T0 + 3_600_000);
    await h.advance(10_000);
    h.scheduler.webhookEvent("a");
    expect(h.scheduler.nextRunAt("a")).toBe(T0 + 30_000);
    await h.advance(20_000);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["interval", 30_000],
    ]);
  });

  it("runs at once when the cut-back wait has already passed", async () => {
    const h = harness({ autoSettle: { nextRunAfter: 3_600 } });
    h.scheduler.add("a", { intervalMs: 30_000 });
    await h.advance(0);
    await h.advance(45_000);
    h.scheduler.webhookEvent("a");
    await h.advance(0);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["interval", 45_000],
    ]);
  });

  it("leaves a wait no longer than the interval alone on a webhook event", async () => {
    const h = harness({ autoSettle: { nextRunAfter: 20 } });
    h.scheduler.add("a", { intervalMs: 30_000 });
    await h.advance(0);
    h.scheduler.webhookEvent("a");
    expect(h.scheduler.nextRunAt("a")).toBe(T0 + 20_000);
  });

  it("runs nothing while paused and each overdue extension once on resume", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 10_000 });
    h.scheduler.add("b", { intervalMs: 60_000 });
    await h.advance(0);
    h.scheduler.pause();
    await h.advance(200_000);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["launch", 0],
    ]);
    h.scheduler.resume();
    await h.advance(0);
    // a fell due first (at 10 s), so it runs at once; b follows one step later.
    expect(h.runs("a")).toEqual([
      ["launch", 0],
      ["interval", 200_000],
    ]);
    expect(h.runs("b")).toEqual([["launch", 0]]);
    await h.advance(WAKE_STEP_MS - 1);
    expect(h.runs("b")).toEqual([["launch", 0]]);
    await h.advance(1);
    expect(h.runs("b")).toEqual([
      ["launch", 0],
      ["interval", 200_000 + WAKE_STEP_MS],
    ]);
    await h.advance(10_000);
    expect(h.runs("a")).toHaveLength(3);
  });

  it("spreads 30 overdue extensions 100 ms apart at resume, in the order they fell due, then by id", async () => {
    const h = harness({ autoSettle: {} });
    const ids = Array.from({ length: 30 }, (_, i) => `ext${String(i).padStart(2, "0")}`);
    // Added in reverse, all with the same interval: they fall due together, so the id decides.
    for (const id of [...ids].reverse()) h.scheduler.add(id, { intervalMs: 60_000 });
    await h.advance(0);
    h.scheduler.pause();
    await h.advance(3_600_000);
    const before = h.started.length;
    h.scheduler.resume();
    await h.advance(0);
    for (let i = 0; i < 29; i++) await h.advance(WAKE_STEP_MS);
    const woke = h.started.slice(before).map((s) => [s.id, s.at - T0 - 3_600_000]);
    expect(woke).toEqual(ids.map((id, i) => [id, i * WAKE_STEP_MS]));
    // After the wake each goes back to its own interval, counted from its own run.
    expect(h.scheduler.nextRunAt("ext29")).toBe(T0 + 3_600_000 + 2_900 + 60_000);
  });

  it("fits any number of overdue runs into the three-second spread", () => {
    expect(wakeOffset(0, 1)).toBe(0);
    expect(wakeOffset(30, 31)).toBe(3_000); // 31 runs: exactly 100 ms apart, the last at 3 s
    expect(wakeOffset(31, 32)).toBe(2_976); // past 31 the step shrinks: floor(3000 / 31) = 96 ms
    expect(wakeOffset(99, 100)).toBeLessThanOrEqual(WAKE_SPREAD_MS);
  });

  it("holds the launch run of an extension added while paused until resume", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.pause();
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(5_000);
    expect(h.runs()).toEqual([]);
    h.scheduler.resume();
    await h.advance(0);
    expect(h.runs()).toEqual([["launch", 5_000]]);
  });

  it("never overlaps runs of one extension: a manual run waits for the run under way", async () => {
    const h = harness();
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    h.scheduler.runNow("a", "manual");
    h.scheduler.runNow("a", "manual");
    await h.advance(5_000);
    expect(h.runs()).toEqual([["launch", 0]]);
    h.started[0]!.settle();
    await h.advance(0);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["manual", 5_000],
    ]);
    expect(h.overlapping()).toBe(0);
  });

  it("gives up a run after 30 s and schedules the next one", async () => {
    const h = harness();
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(RUN_TIMEOUT_MS - 1);
    expect(h.ended).toEqual([]);
    await h.advance(1);
    expect(h.ended).toMatchObject([
      { id: "a", result: "timeout", error: "did not settle within 30 s", nextRunAt: T0 + 40_000 },
    ]);
    h.started[0]!.settle({ nextRunAfter: 1 }); // too late: ignored
    await h.advance(0);
    expect(h.scheduler.nextRunAt("a")).toBe(T0 + 40_000);
  });

  it("reports a failed run and keeps the schedule", async () => {
    const h = harness();
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    h.started[0]!.fail("boom");
    await h.advance(0);
    expect(h.ended).toMatchObject([{ result: "failed", error: "boom", nextRunAt: T0 + 10_000 }]);
  });

  it("runs manual and preferences triggers at once and restarts the wait after them", async () => {
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    await h.advance(4_000);
    h.scheduler.runNow("a", "preferences");
    await h.advance(0);
    await h.advance(9_999);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["preferences", 4_000],
    ]);
    await h.advance(1);
    expect(h.runs()).toEqual([
      ["launch", 0],
      ["preferences", 4_000],
      ["interval", 14_000],
    ]);
  });

  it("forgets a removed extension, its run under way included", async () => {
    const h = harness();
    h.scheduler.add("a", { intervalMs: 10_000 });
    await h.advance(0);
    h.scheduler.remove("a");
    h.started[0]!.settle();
    await h.advance(100_000);
    expect(h.runs()).toEqual([["launch", 0]]);
    expect(h.ended).toEqual([]);
    expect(h.clock.timerCount).toBe(0);
  });

  it("on battery stretches each wait three times, never below the interval, and is the usual again on power", async () => {
    expect(stretchWait(300_000, 300_000)).toBe(900_000);
    expect(stretchWait(5_000, 300_000)).toBe(300_000); // a short nextRunAfter waits the interval
    expect(stretchWait(5_000, undefined)).toBe(15_000);
    const h = harness({ autoSettle: {} });
    h.scheduler.add("a", { intervalMs: 60_000 });
    await h.advance(0);
    h.scheduler.setOnBattery(true);
    expect(h.scheduler.onBattery).toBe(true);
    // The wait under way is stretched at once: due 180 s after the launch run, not 60 s.
    expect(h.scheduler.nextRunAt("a")! - T0).toBe(180_000);
    await h.advance(179_999);
    expect(h.runs("a")).toEqual([["launch", 0]]);
    await h.advance(toleranceFor(180_000) + 1);
    const last = h.runs("a")[1]![1] as number;
    expect(h.runs("a")[1]![0]).toBe("interval");
    expect(last).toBeGreaterThanOrEqual(180_000);
    expect(last).toBeLessThanOrEqual(180_000 + toleranceFor(180_000));
    const ended = h.ended.at(-1)!.endedAt - T0;
    expect(h.scheduler.nextRunAt("a")! - T0).toBe(ended + 180_000);
    // Back on power 70 s after that run: the usual 60 s wait is over, so it runs now.
    await h.advance(ended + 70_000 - (h.clock.now() - T0));
    h.scheduler.setOnBattery(false);
    await h.advance(0);
    expect(h.runs("a").at(-1)).toEqual(["interval", ended + 70_000]);
    expect(h.scheduler.nextRunAt("a")! - T0).toBe(ended + 70_000 + 60_000);
  });
});
