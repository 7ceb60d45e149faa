import { describe, expect, it } from "vitest";
import { snoozeUntil } from "./snooze.js";

// A Saturday, 09:30 UTC.
const NOW = Date.parse("2025-03-01T09:30:00.000Z");
const UTC = { utcOffset: 0 };

describe("snoozeUntil", () => {
  it("reads spans from now", () => {
    expect(snoozeUntil("30m", NOW, UTC)).toBe("2025-03-01T10:00:00.000Z");
    expect(snoozeUntil("3h", NOW, UTC)).toBe("2025-03-01T12:30:00.000Z");
    expect(snoozeUntil(" 1.5 hours ", NOW, UTC)).toBe("2025-03-01T11:00:00.000Z");
    expect(snoozeUntil("2d", NOW, UTC)).toBe("2025-03-03T09:30:00.000Z");
    expect(snoozeUntil("1w", NOW, UTC)).toBe("2025-03-08T09:30:00.000Z");
  });
  it("wakes tomorrow morning by default, at 9:00 or the start of working hours", () => {
    expect(snoozeUntil(undefined, NOW, UTC)).toBe("2025-03-02T09:00:00.000Z");
    expect(snoozeUntil("Tomorrow", NOW, UTC)).toBe("2025-03-02T09:00:00.000Z");
    const workingHours = { start: 8 * 60 + 30, end: 17 * 60, weekdaysOnly: true };
    expect(snoozeUntil("tomorrow", NOW, { utcOffset: 0, workingHours })).toBe("2025-03-02T08:30:00.000Z");
  });
  it("reads weekdays as their next morning, today's a week on", () => {
    expect(snoozeUntil("monday", NOW, UTC)).toBe("2025-03-03T09:00:00.000Z");
    expect(snoozeUntil("next week", NOW, UTC)).toBe("2025-03-03T09:00:00.000Z");
    expect(snoozeUntil("friday", NOW, UTC)).toBe("2025-03-07T09:00:00.000Z");
    expect(snoozeUntil("saturday", NOW, UTC)).toBe("2025-03-08T09:00:00.000Z");
  });
  it("counts mornings on the person's clock", () => {
    // 09:30 UTC is 18:30 in Tokyo (UTC+9): tomorrow morning there is 00:00 UTC.
    expect(snoozeUntil("tomorrow", NOW, { utcOffset: 9 * 60 })).toBe("2025-03-02T00:00:00.000Z");
    // 09:30 UTC is 01:30 in Los Angeles (UTC-8), still Saturday there.
    expect(snoozeUntil("tomorrow", NOW, { utcOffset: -8 * 60 })).toBe("2025-03-02T17:00:00.000Z");
  });
  it("takes numbers like staleAfter, and Dates and ISO strings", () => {
    expect(snoozeUntil(3600, NOW)).toBe("2025-03-01T10:30:00.000Z");
    expect(snoozeUntil(1740830400, NOW)).toBe("2025-03-01T12:00:00.000Z");
    expect(snoozeUntil(new Date("2025-03-04T08:00:00Z"), NOW)).toBe("2025-03-04T08:00:00.000Z");
    expect(snoozeUntil("2025-03-04T08:00:00Z", NOW)).toBe("2025-03-04T08:00:00.000Z");
  });
  it("refuses what it cannot read, saying what it takes", () => {
    expect(() => snoozeUntil("3", NOW)).toThrow(
      'can\'t snooze for "3": try 30m, 3h, 2d, tomorrow, monday or next week',
    );
    expect(() => snoozeUntil("whenever", NOW)).toThrow('can\'t snooze for "whenever"');
  });
});
