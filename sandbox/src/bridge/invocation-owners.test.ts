import { afterEach, describe, expect, it } from "vitest";
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
      const signal = owners.within(1, () => owners.adoptAbortable(7))!;
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

  describe("the AbortController, made once a call needs a signal", () => {
    const Original = globalThis.AbortController;
    afterEach(() => void (globalThis.AbortController = Original));
    /** Counts the AbortControllers made from now on. */
    const made = () => {
      const count = { times: 0 };
      globalThis.AbortController = class extends Original {
        constructor() {
          super();
          count.times++;
        }
      };
      return count;
    };

    it("none for an invocation whose calls need no signal (an emit, a subtle call)", () => {
      const constructed = made();
      const owners = new InvocationOwners();
      owners.begin(1);
      expect(owners.within(1, () => [owners.adopt(7), owners.adopt(8)])).toEqual([true, true]);
      expect(owners.ownerOf(7)).toBe(1);
      owners.end(1, { aborted: true });
      expect(constructed.times).toBe(0);
    });

    it("one for the first call that needs a signal, shared by the invocation's later ones", () => {
      const constructed = made();
      const owners = new InvocationOwners();
      owners.begin(1);
      owners.begin(2);
      const [first, second] = owners.within(1, () => [owners.adoptAbortable(7), owners.adoptAbortable(8)]);
      const other = owners.within(2, () => owners.adoptAbortable(9));
      expect(constructed.times).toBe(2);
      expect(second).toBe(first);
      owners.end(1, { aborted: true });
      expect([first!.aborted, other!.aborted]).toEqual([true, false]);
      expect(String(first!.reason)).toBe("Error: the call that started it ended");
    });

    it("no signal and no record for a call made outside an invocation, or after its end", () => {
      const owners = new InvocationOwners();
      expect(owners.adoptAbortable(7)).toBeUndefined();
      owners.begin(1);
      owners.end(1, { aborted: false });
      expect(owners.within(1, () => [owners.adopt(8), owners.adoptAbortable(9)])).toEqual([false, undefined]);
      expect([owners.ownerOf(7), owners.ownerOf(8), owners.ownerOf(9)]).toEqual([undefined, undefined, undefined]);
    });
  });
});
