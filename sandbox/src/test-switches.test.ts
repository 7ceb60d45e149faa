/** SVC_TEST_NOW: the guests' clock starts at the given moment and runs on; a bad value says what is wrong. */
import { describe, expect, it } from "vitest";
import { testClock } from "./test-switches.js";

describe("testClock (SVC_TEST_NOW)", () => {
  it("is off when unset or empty", () => {
    expect(testClock({})).toBeUndefined();
    expect(testClock({ SVC_TEST_NOW: "" })).toBeUndefined();
  });

  it("starts at the given moment and runs forward at the real pace", () => {
    const before = Date.now();
    const clock = testClock({ SVC_TEST_NOW: "2025-06-10T09:20:00Z" })!;
    const start = Date.parse("2025-06-10T09:20:00Z");
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(start);
    expect(now - start).toBeLessThanOrEqual(Date.now() - before);
    expect(testClock({ SVC_TEST_NOW: "2025-06-10T11:20:00+02:00" })!.now()).toBeGreaterThanOrEqual(start);
  });

  it("refuses a time without its zone, or not a time", () => {
    for (const raw of ["2025-06-10T09:20:00", "2025-06-10", "tomorrow", "2025-13-45T99:99:00Z"])
      expect(() => testClock({ SVC_TEST_NOW: raw })).toThrow(
        `SVC_TEST_NOW should be a time like 2025-06-10T09:20:00Z (with its zone), not ${JSON.stringify(raw)}`,
      );
  });
});
