import { describe, expect, it } from "vitest";
import { InvocationOwners } from "./invocation-owners.js";
import { MAX_TIMERS } from "../limits.js";

describe("InvocationOwners", () => {
  it(`an invocation's signal takes a listener per host call, ${MAX_TIMERS} timers' worth, without Node's leak warning`, async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const owners = new InvocationOwners();
      owners.begin(1);
      const signal = owners.within(1, () => owners.adopt(7))!;
      let aborted = 0;
      for (let i = 0; i < MAX_TIMERS; i++) signal.addEventListener("abort", () => aborted++, { once: true });
      await new Promise((resolve) => setImmediate(resolve)); // Node emits its warnings on a later tick
      expect(warnings).toEqual([]);
      owners.end(1, { aborted: true });
      expect(aborted).toBe(MAX_TIMERS);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
