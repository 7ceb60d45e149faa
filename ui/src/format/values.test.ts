import { describe, expect, it } from "vitest";
import { formatClock, formatDuration, formatRelative, formatValue } from "./values.js";

const NOW = Date.parse("2025-03-01T10:00:00Z");

describe("formatValue", () => {
  it("formats each typed value for the locale", () => {
    expect(formatValue({ type: "currency", value: { amount: 1250.5, currency: "EUR" } }, "en-US", NOW)).toBe(
      "€1,250.50",
    );
    expect(formatValue({ type: "currency", value: { amount: 1250.5, currency: "EUR" } }, "de-DE", NOW)).toBe(
      "1.250,50\u00a0€",
    );
    expect(formatValue({ type: "number", value: 1234.5, unit: "ms" }, "en-US", NOW)).toBe("1,234.5 ms");
    expect(formatValue({ type: "percent", value: 0.123 }, "en-US", NOW)).toBe("12.3%");
    expect(formatValue({ type: "duration", value: 3_905_000 }, "en-US", NOW)).toBe("1h 5m");
    expect(formatValue({ type: "date", value: "2025-03-01T09:55:00Z" }, "en-US", NOW)).toBe("5 minutes ago");
    expect(formatValue({ type: "date", value: "2025-03-02T10:00:00Z" }, "en-US", NOW)).toBe("tomorrow");
    expect(formatValue({ type: "text", value: "a\u001b[2Jb" }, "en-US", NOW)).toBe("a\\u{1b}[2Jb");
    expect(formatValue(42, "en-US", NOW)).toBe("42");
    expect(formatValue("4 / 5", "en-US", NOW)).toBe("4 / 5");
  });

  it("never throws on shapes it does not know", () => {
    expect(formatValue({ type: "currency", value: { amount: 1, currency: "??" } }, "en-US", NOW)).toBe("1 ??");
    expect(formatValue({ type: "mystery" }, "en-US", NOW)).toBe("");
    expect(formatValue(null, "en-US", NOW)).toBe("");
    expect(formatValue(Number.NaN, "en-US", NOW)).toBe("");
  });
});

describe("clocks and durations", () => {
  it("formatClock pads minutes and seconds", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(65_000)).toBe("1:05");
    expect(formatClock(3_909_000)).toBe("1:05:09");
    expect(formatClock(-5)).toBe("0:00");
  });
  it("formatDuration keeps the two largest units", () => {
    expect(formatDuration(42_000, "en-US")).toBe("42s");
    expect(formatDuration(266_400_000, "en-US")).toBe("3d 2h");
  });
  it("formatRelative reads dates relative to now", () => {
    expect(formatRelative(NOW + 42 * 60_000, NOW, "en-US")).toBe("in 42 minutes");
    expect(formatRelative(NOW - 86_400_000, NOW, "en-US")).toBe("yesterday");
  });
});
