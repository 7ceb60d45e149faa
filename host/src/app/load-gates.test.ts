import { describe, expect, it } from "vitest";
import { LoadGates } from "./load-gates.js";

describe("LoadGates", () => {
  it("holds pass() until every reason is opened", async () => {
    const gates = new LoadGates();
    let passed = false;
    await gates.pass("a"); // open: at once
    gates.close("a", "load");
    gates.close("a", "runtime");
    gates.close("a", "load"); // the same reason twice is one reason
    const waiting = gates.pass("a").then(() => (passed = true));
    gates.open("a", "load");
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toBe(false);
    expect(gates.has("a")).toBe(true);
    gates.open("a", "runtime");
    await waiting;
    expect(gates.has("a")).toBe(false);
  });

  it("lets everything through when an extension is released, and opening an unknown reason does nothing", async () => {
    const gates = new LoadGates();
    gates.close("a", "load");
    gates.open("a", "preferences");
    expect(gates.ids()).toEqual(["a"]);
    const waiting = gates.pass("a");
    gates.release("a");
    await waiting;
    expect(gates.ids()).toEqual([]);
  });
});
