import { describe, expect, it } from "vitest";
import { mayPop, PopGate, POP_EVERY_MS } from "./pop.js";

describe("mayPop", () => {
  it("follows the person's choice; unset, only bundled extensions may pop", () => {
    expect(mayPop({}, { id: "svc.system", source: "bundled" })).toBe(true);
    expect(mayPop({}, { id: "com.stranger", source: "user" })).toBe(false);
    expect(mayPop(undefined, { id: "com.dev", source: "dev" })).toBe(false);
    expect(mayPop({ "com.stranger": true }, { id: "com.stranger", source: "user" })).toBe(true);
    expect(mayPop({ "svc.system": false }, { id: "svc.system", source: "bundled" })).toBe(false);
  });
});

describe("PopGate", () => {
  const change = (now: number, extra: object = {}) => ({
    hadBlip: true,
    previousState: "running",
    state: "success",
    allowed: true,
    now,
    ...extra,
  });

  it("pops on a change of state only, for an allowed extension, never on a first show", () => {
    expect(new PopGate().consider(change(0, { previousState: "success" }))).toBe(false);
    expect(new PopGate().consider(change(0, { allowed: false }))).toBe(false);
    expect(new PopGate().consider(change(0, { hadBlip: false, previousState: undefined }))).toBe(false);
    expect(new PopGate().consider(change(0))).toBe(true);
  });

  it("pops at most once per POP_EVERY_MS: not at the limit minus one, again at the limit", () => {
    const gate = new PopGate();
    expect(gate.consider(change(1_000))).toBe(true);
    expect(gate.consider(change(1_000 + POP_EVERY_MS - 1))).toBe(false);
    expect(gate.consider(change(1_000 + POP_EVERY_MS))).toBe(true);
  });
});
