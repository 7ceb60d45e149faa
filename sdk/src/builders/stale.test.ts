import { describe, expect, it } from "vitest";
import { staleAfter } from "./stale.js";

const NOW = Date.parse("2025-03-01T09:30:00.000Z");

describe("staleAfter", () => {
  it("reads a number under 1e9 as seconds from now", () => {
    expect(staleAfter(600, NOW)).toBe("2025-03-01T09:40:00.000Z");
    expect(staleAfter(0, NOW)).toBe("2025-03-01T09:30:00.000Z");
  });
  it("just under the limit is still seconds from now", () => {
    expect(staleAfter(999_999_999, NOW)).toBe(new Date(NOW + 999_999_999_000).toISOString());
  });
  it("at the limit, 1e9 is an epoch time in seconds", () => {
    expect(staleAfter(1e9, NOW)).toBe("2001-09-09T01:46:40.000Z");
  });
  it("past it, epoch seconds, then from 1e12 milliseconds", () => {
    expect(staleAfter(1e9 + 1, NOW)).toBe("2001-09-09T01:46:41.000Z");
    expect(staleAfter(NOW / 1000, 0)).toBe("2025-03-01T09:30:00.000Z");
    expect(staleAfter(NOW, 0)).toBe("2025-03-01T09:30:00.000Z");
  });
  it("takes Dates and ISO strings like dates", () => {
    expect(staleAfter(new Date(NOW))).toBe("2025-03-01T09:30:00.000Z");
    expect(staleAfter("2025-03-01T10:30:00+01:00")).toBe("2025-03-01T09:30:00.000Z");
  });
  it("refuses what is not a moment", () => {
    expect(() => staleAfter("later", NOW)).toThrow('"later" is not a date');
  });
});
