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

describe("CpuBudget under many short slices", () => {
  it("keeps charges close together as one entry, which leaves the window with the latest of them", () => {
    let now = 0;
    const budget = new CpuBudget(1000, () => now);
    for (let i = 0; i < 2600; i++) {
      budget.charge(1); // 2600 slices of 1 ms, 0.03 ms apart: one entry
      now += 0.03;
    }
    const last = now - 0.03;
    expect(budget.waitMs()).toBeCloseTo(last + 10_000 - now, 6); // it leaves with the last slice
    now = last + 10_000;
    expect(budget.waitMs()).toBe(0);
  });

  it("keeps charges a bucket (1 % of the window) apart as separate entries", () => {
    let now = 0;
    const budget = new CpuBudget(1000, () => now);
    budget.charge(1300);
    now = 100; // exactly one bucket later: a new entry
    budget.charge(1300);
    expect(budget.waitMs()).toBe(9_900); // over by 100: the first alone leaves at 10 s (merged, both at 10.1 s)
    now = 10_000;
    expect(budget.waitMs()).toBe(0);
  });
});
