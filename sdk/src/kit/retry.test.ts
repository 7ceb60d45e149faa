import { describe, expect, it } from "vitest";
import { memoryStorage } from "./memory-storage.js";
import { FAILURES_KEY, mayPass, recovered, retryLater } from "./retry.js";

const half = { random: () => 0 };

describe("retryLater", () => {
  it("counts failures in a row and doubles the wait from base", async () => {
    const storage = memoryStorage();
    const offline = { kind: "offline" as const, message: "No connection" };
    expect(await retryLater(storage, offline, half)).toEqual({
      nextRunAfter: 5,
      problem: { ...offline, retryAfter: 5 },
      failures: 1,
    });
    expect((await retryLater(storage, offline, half)).nextRunAfter).toBe(10);
    expect((await retryLater(storage, offline, { ...half, base: 30 })).nextRunAfter).toBe(60);
    expect(storage.snapshot()).toEqual({ [FAILURES_KEY]: 3 });
  });

  it("waits what the service asked for, whatever the count", async () => {
    const storage = memoryStorage({ [FAILURES_KEY]: 7 });
    const limited = { kind: "rate-limited" as const, message: "Rate limited", status: 429, retryAfter: 600 };
    expect(await retryLater(storage, limited, half)).toEqual({ nextRunAfter: 600, problem: limited, failures: 8 });
  });

  it("leaves a problem a person must fix without a next try, so the blip says what to fix", async () => {
    const storage = memoryStorage();
    const gone = { kind: "not-found" as const, message: "Not found", status: 404 };
    const plan = await retryLater(storage, gone, half);
    expect(plan.problem).toBe(gone);
    expect(plan.nextRunAfter).toBe(5);
    expect([mayPass(gone), mayPass({ kind: "unavailable", message: "Service unavailable (503)" })]).toEqual([
      false,
      true,
    ]);
  });

  it("keeps its count under the key given; a count that is not a number starts again", async () => {
    const storage = memoryStorage({ "weather.failures": "many" });
    const plan = await retryLater(
      storage,
      { kind: "unavailable", message: "Service unavailable (503)" },
      { key: "weather.failures", ...half },
    );
    expect(plan.failures).toBe(1);
    await recovered(storage, "weather.failures");
    expect(storage.snapshot()).toEqual({});
  });
});
