import { describe, expect, it } from "vitest";
import { RestartBackoff } from "./backoff.js";

describe("RestartBackoff", () => {
  it("doubles up to the ceiling and starts over after a healthy run", () => {
    const backoff = new RestartBackoff({ firstMs: 100, maxMs: 350, healthyAfterMs: 1000 });
    expect([backoff.next(5), backoff.next(5), backoff.next(5), backoff.next(5)]).toEqual([100, 200, 350, 350]);
    expect(backoff.next(999)).toBe(350);
    expect(backoff.next(1000)).toBe(100);
  });
});
