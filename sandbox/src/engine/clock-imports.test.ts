/**
 * `SandboxEnvironment.clock`: the guest's `Date`, `performance.now()` and timers follow a clock
 * the owner moves by hand (the test kit's), and nothing else.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Sandbox } from "../sandbox.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "../sandbox.fixtures.js";
import type { SandboxClock } from "../types.js";

/** The smallest manual clock: timers fire only when `advance` passes them. */
function handClock(start: number): SandboxClock & { advance(ms: number): void } {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { due: now + ms, callback });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].due - b[1].due)) {
        if (timer.due > now) continue;
        timers.delete(id);
        timer.callback();
      }
    },
  };
}

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.dispose()));
});

async function sandboxWith(clock: SandboxClock, body: string): Promise<Sandbox> {
  const sandbox = await Sandbox.create(optionsFor(updateBundle(body)), recorder(), { clock });
  sandboxes.push(sandbox);
  await sandbox.load();
  return sandbox;
}

describe("a sandbox on a given clock", () => {
  it("Date.now(), new Date() and performance.now() read the clock", async () => {
    const start = Date.UTC(2025, 2, 1, 9, 30);
    const clock = handClock(start);
    const sandbox = await sandboxWith(clock, `return [Date.now(), new Date().toISOString(), performance.now()];`);
    await expect(sandbox.invoke(UPDATE)).resolves.toEqual([start, "2025-03-01T09:30:00.000Z", 0]);
    clock.advance(90_000);
    await expect(sandbox.invoke(UPDATE)).resolves.toEqual([start + 90_000, "2025-03-01T09:31:30.000Z", 90_000]);
  });

  it("a timer fires when the clock passes it, not before, however long the real wait", async () => {
    const clock = handClock(Date.UTC(2025, 0, 1));
    const sandbox = await sandboxWith(
      clock,
      `
      globalThis.fired = globalThis.fired ?? [];
      if (ctx.trigger?.type === "launch") setTimeout(() => fired.push(Date.now()), 60_000);
      return fired;`,
    );
    await expect(
      sandbox.invoke({ kind: "update", ctx: { trigger: { type: "launch" }, preferences: {} } }),
    ).resolves.toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.advance(59_999);
    await expect(sandbox.invoke(UPDATE)).resolves.toEqual([]);
    clock.advance(1);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(sandbox.invoke(UPDATE)).resolves.toEqual([Date.UTC(2025, 0, 1) + 60_000]);
  });
});
