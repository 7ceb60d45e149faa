import { describe, expect, it } from "vitest";
import { ALLOW_ARM_MS, AllowArming } from "./allow-arming.js";

describe("an agent request's Allow takes no click at first", () => {
  it(`waits ${ALLOW_ARM_MS} ms from when a request is shown: not at ${ALLOW_ARM_MS - 1}, at ${ALLOW_ARM_MS}`, () => {
    let now = 1000;
    const arming = new AllowArming(() => now);
    arming.update(["a"]);
    expect(arming.waitLeft("a")).toBe(ALLOW_ARM_MS);
    expect(arming.nextArming()).toBe(ALLOW_ARM_MS);
    now += ALLOW_ARM_MS - 1;
    expect(arming.waitLeft("a")).toBe(1);
    now += 1;
    expect(arming.waitLeft("a")).toBe(0);
    expect(arming.nextArming()).toBeUndefined();
    // Shown again unchanged (another feed event): it stays armed.
    arming.update(["a"]);
    expect(arming.waitLeft("a")).toBe(0);
  });

  it("a request swapped in at the same place waits again from the swap", () => {
    let now = 0;
    const arming = new AllowArming(() => now);
    arming.update(["first"]);
    now = 5000;
    expect(arming.waitLeft("first")).toBe(0);
    arming.update(["second"]);
    expect(arming.waitLeft("second")).toBe(ALLOW_ARM_MS);
    // The withdrawn one has nothing to allow.
    expect(arming.waitLeft("first")).toBe(ALLOW_ARM_MS);
  });

  it("a request that moves up (the one above it went) waits again; one added below does not disturb those above", () => {
    let now = 0;
    const arming = new AllowArming(() => now);
    arming.update(["a", "b"]);
    now = 5000;
    arming.update(["a", "b", "c"]);
    expect([arming.waitLeft("a"), arming.waitLeft("b"), arming.waitLeft("c")]).toEqual([0, 0, ALLOW_ARM_MS]);
    now = 10_000;
    arming.update(["b", "c"]);
    expect([arming.waitLeft("b"), arming.waitLeft("c")]).toEqual([ALLOW_ARM_MS, ALLOW_ARM_MS]);
  });
});
