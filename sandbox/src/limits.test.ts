import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, MEMORY_HEADROOM_BYTES, memoryPages, resolveLimits } from "./limits.js";

const MiB = 1024 * 1024;

describe("resolveLimits", () => {
  it("fills in the defaults: 64 MB, 1 MB stack, 1000 ms slices, 15 s slices in a tool run", () => {
    expect(resolveLimits()).toEqual({
      memoryBytes: 64 * MiB,
      stackBytes: 1024 * 1024,
      sliceMs: 1000,
      toolSliceMs: 15_000,
    });
    expect(resolveLimits({ sliceMs: 200, memoryBytes: undefined })).toEqual({ ...DEFAULT_LIMITS, sliceMs: 200 });
  });

  it.each([
    ["memoryBytes", 1 * MiB, 1 * MiB - 1, 1024 * MiB, 1024 * MiB + 1],
    ["stackBytes", 16 * 1024, 16 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1],
    ["sliceMs", 10, 9, 60_000, 60_001],
    ["toolSliceMs", 10, 9, 60_000, 60_001],
  ] as const)("%s: accepts the bounds, refuses just past them", (name, min, belowMin, max, aboveMax) => {
    expect(resolveLimits({ [name]: min })[name]).toBe(min);
    expect(resolveLimits({ [name]: max })[name]).toBe(max);
    expect(() => resolveLimits({ [name]: belowMin })).toThrow(
      `limits.${name} must be a number from ${min} to ${max}, got ${belowMin}`,
    );
    expect(() => resolveLimits({ [name]: aboveMax })).toThrow(RangeError);
  });

  it("refuses a value that is not a finite number", () => {
    expect(() => resolveLimits({ sliceMs: Number.NaN })).toThrow(
      "limits.sliceMs must be a number from 10 to 60000, got NaN",
    );
  });
});

describe("memoryPages", () => {
  it("caps the linear memory at memoryBytes plus the documented headroom", () => {
    expect(memoryPages(resolveLimits())).toEqual({ initial: 256, maximum: (64 * MiB + MEMORY_HEADROOM_BYTES) / 65536 });
  });

  it("never goes below the build's 256-page minimum", () => {
    expect(memoryPages(resolveLimits({ memoryBytes: 1 * MiB }))).toEqual({ initial: 256, maximum: 256 });
  });
});
