import { describe, expect, it } from "vitest";
import { CpuBudget } from "./cpu-budget.js";

describe("CpuBudget (slice 1000 ms: 2500 ms of CPU per 10 s, offences from 750 ms)", () => {
  it("lets a sandbox use exactly its budget, and throttles it past it until the oldest charge leaves the window", () => {
    let now = 0;
    const budget = new CpuBudget(1000, () => now);
    budget.charge(700);
    budget.charge(700);
    budget.charge(700);
    budget.charge(400);
    expect(budget.waitMs()).toBe(0); // 2500: at the budget
    budget.charge(1);
    expect(budget.waitMs()).toBe(10_000); // the first charge (at 0) leaves at 10 s
    now = 10_000;
    expect(budget.waitMs()).toBe(0);
    expect(budget.offences).toBe(0);
  });

  it("charges a near-limit slice one slice more: two 950 ms bursts in a window are past the budget", () => {
    let now = 0;
    const budget = new CpuBudget(1000, () => now);
    expect(budget.charge(749)).toBe(false);
    expect(budget.charge(750)).toBe(true);
    expect(budget.offences).toBe(1);
    now = 20_000;
    budget.charge(950);
    expect(budget.waitMs()).toBe(0);
    now = 21_000;
    budget.charge(950);
    expect(budget.waitMs()).toBe(9_000);
  });
});
