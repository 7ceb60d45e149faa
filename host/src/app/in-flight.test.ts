import { describe, expect, it } from "vitest";
import { InFlight } from "./in-flight.js";

/** A promise and the functions that settle it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe("InFlight", () => {
  it("is idle at once when nothing runs", async () => {
    await new InFlight().idle("a.b");
  });

  it("waits for every request of that extension, started before or while waiting, failed ones too", async () => {
    const inFlight = new InFlight();
    const first = deferred();
    const second = deferred();
    const other = deferred();
    void inFlight.track("a.b", first.promise);
    void inFlight.track("c.d", other.promise);
    const tracked = inFlight.track("a.b", second.promise).catch((e: Error) => e.message);
    let idle = false;
    const waiting = inFlight.idle("a.b").then(() => (idle = true));
    first.resolve();
    await new Promise((r) => setTimeout(r, 5));
    expect(idle).toBe(false);
    const third = deferred();
    void inFlight.track("a.b", third.promise);
    second.reject(new Error("onAction threw"));
    expect(await tracked).toBe("onAction threw");
    await new Promise((r) => setTimeout(r, 5));
    expect(idle).toBe(false);
    third.resolve();
    await waiting;
    expect(idle).toBe(true);
    other.resolve();
  });
});
