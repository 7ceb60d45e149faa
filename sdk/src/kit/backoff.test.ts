import { describe, expect, it } from "vitest";
import { backoff, waitForReset } from "./backoff.js";

const NOW = Date.parse("2024-05-10T12:00:00Z");

describe("backoff", () => {
  it("doubles from base, half of it fixed and half jitter", () => {
    expect(backoff(0, { random: () => 0 })).toBe(5);
    expect(backoff(0, { random: () => 0.999999 })).toBe(10);
    expect(backoff(1, { random: () => 0 })).toBe(10);
    expect(backoff(3, { random: () => 0.5 })).toBe(60);
  });
  it("stops growing at max", () => {
    expect(backoff(9, { random: () => 0.999999 })).toBe(3600);
    expect(backoff(5000, { random: () => 0 })).toBe(1800);
    expect(backoff(4, { base: 1, max: 8, random: () => 0.999999 })).toBe(8);
  });
  it("treats bad attempts as the first and bad randomness as bounded", () => {
    expect(backoff(-3, { random: () => 0 })).toBe(5);
    expect(backoff(Number.NaN, { random: () => 0 })).toBe(5);
    expect(backoff(0, { random: () => 7 })).toBe(10);
  });
  it("stays within its bounds with the real randomness", () => {
    for (let i = 0; i < 50; i++) {
      const wait = backoff(2);
      expect(wait).toBeGreaterThanOrEqual(20);
      expect(wait).toBeLessThanOrEqual(40);
    }
  });
});

describe("waitForReset", () => {
  it("reads Retry-After in seconds", () => {
    expect(waitForReset({ "Retry-After": "120" }, NOW)).toBe(120);
    expect(waitForReset({ "retry-after": "0" }, NOW)).toBe(0);
  });
  it("reads Retry-After as an HTTP date", () => {
    expect(waitForReset({ "retry-after": new Date(NOW + 90_500).toUTCString() }, NOW)).toBe(90);
    expect(waitForReset({ "retry-after": new Date(NOW - 5000).toUTCString() }, NOW)).toBe(0);
  });
  it("reads fetch Headers and Responses", () => {
    const headers = new Headers({ "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(NOW / 1000 + 300) });
    expect(waitForReset(headers, NOW)).toBe(300);
    expect(waitForReset(new Response(null, { status: 429, headers }), NOW)).toBe(300);
  });
  it("reads a reset under 1e9 as seconds from now, and from 1e9 up as an epoch", () => {
    expect(waitForReset({ "ratelimit-reset": "999999999" }, NOW)).toBe(999_999_999);
    const atEpoch = Date.parse("2001-09-09T01:46:40Z"); // 1e9 epoch seconds
    expect(waitForReset({ "ratelimit-reset": "1000000000" }, atEpoch - 30_000)).toBe(30);
    expect(waitForReset({ "x-rate-limit-reset": String(NOW + 45_000) }, NOW)).toBe(45); // epoch ms
  });
  it("does not wait while calls remain", () => {
    expect(waitForReset({ "x-ratelimit-remaining": "12", "x-ratelimit-reset": String(NOW / 1000 + 300) }, NOW)).toBe(
      undefined,
    );
  });
  it("prefers Retry-After to a reset", () => {
    expect(waitForReset({ "retry-after": "7", "x-ratelimit-reset": String(NOW / 1000 + 300) }, NOW)).toBe(7);
  });
  it("says nothing when the headers say nothing usable", () => {
    expect(waitForReset({}, NOW)).toBe(undefined);
    expect(waitForReset({ "retry-after": "soon" }, NOW)).toBe(undefined);
    expect(waitForReset({ "x-ratelimit-reset": "" }, NOW)).toBe(undefined);
  });
});
