import { describe, expect, it } from "vitest";
import { toMilliseconds } from "./duration.js";

describe("toMilliseconds", () => {
  it("reads units and their sums", () => {
    expect(toMilliseconds("250ms")).toBe(250);
    expect(toMilliseconds("90s")).toBe(90_000);
    expect(toMilliseconds("5m")).toBe(300_000);
    expect(toMilliseconds("1h30m")).toBe(5_400_000);
    expect(toMilliseconds("2d")).toBe(172_800_000);
    expect(toMilliseconds(0)).toBe(0);
  });

  it("refuses what it cannot read, saying how to write it", () => {
    expect(() => toMilliseconds("5 minutes")).toThrow(
      '"5 minutes" is not a span of time: write it like "250ms", "90s", "5m", "1h30m" or "2d", or give milliseconds',
    );
    expect(() => toMilliseconds("m5")).toThrow(/not a span of time/);
    expect(() => toMilliseconds(-1)).toThrow("a span of time should be 0 ms or more; got -1");
  });
});
