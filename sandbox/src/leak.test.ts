/**
 * Creating and disposing many sandboxes leaves nothing behind on the sandbox thread: its heap,
 * its memory outside the heap (the instances' linear memories) and its active handles return
 * to where they were.
 */
import { readdirSync } from "node:fs";
import { afterAll, expect, it, vi } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "./sandbox.fixtures.js";

const pool = new SandboxPool({ threads: 1 });
afterAll(() => pool.dispose());

const BUSY_BUNDLE = updateBundle(`
  setInterval(() => {}, 60000);
  setTimeout(() => {}, 60000);
  console.log("hi");
  await ctx.storage.set("k", { n: 1 });
  return new URL("https://a.test/?q=" + crypto.randomUUID()).searchParams.get("q").length;`);

async function cycle(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const sandbox = await pool.create(optionsFor(BUSY_BUNDLE), recorder());
    await sandbox.load();
    await expect(sandbox.invoke(UPDATE)).resolves.toBe(36);
    await sandbox.dispose();
  }
}

/**
 * The thread's figures once its idle work is done (the code cache's compile, the spare): no timer of its own pending.
 */
async function settledStats() {
  await vi.waitFor(
    async () => {
      const [thread] = await pool.stats();
      expect(thread).toMatchObject({ compiling: 0, spare: true });
    },
    { timeout: 10_000, interval: 50 },
  );
  const [thread] = await pool.stats({ collectGarbage: true });
  return thread;
}

it("create/dispose cycles do not grow the sandbox thread's heap, memory or handles", async () => {
  await cycle(10);
  const before = await settledStats();
  await cycle(40);
  // One sandbox's linear memory alone is 16 MB, freed by the collector: on a busy machine a few
  // may still await it after one collection, so collect again until the figure settles — 40
  // leaked instances (640 MB) never would.
  let after = await settledStats();
  await vi.waitFor(
    async () => {
      after = await settledStats();
      expect(after.external - before.external).toBeLessThan(48 * 1024 * 1024);
    },
    { timeout: 30_000, interval: 500 },
  );
  console.log(
    `sandbox thread after 10 and after 50 cycles: heap ${before.heapUsed} → ${after.heapUsed}, external ${before.external} → ${after.external}, handles ${before.activeResources} → ${after.activeResources}`,
  );
  expect(after.sandboxes).toBe(0);
  expect(after.activeResources).toBe(before.activeResources);
  expect(after.heapUsed - before.heapUsed).toBeLessThan(4 * 1024 * 1024);
}, 90_000);

it("sandbox threads that end leave no file descriptor open (each reads its CPU clock through one)", async () => {
  const openDescriptors = () => readdirSync("/proc/self/fd").length;
  const warmed = new SandboxPool({ threads: 2 });
  await warmed.warm();
  await warmed.dispose();
  const before = openDescriptors();
  for (let i = 0; i < 5; i++) {
    const local = new SandboxPool({ threads: 2 });
    await local.warm();
    await local.dispose();
  }
  expect(openDescriptors()).toBeLessThanOrEqual(before);
}, 60_000);
