/**
 * Red team, fair sharing: attacks on the CPU and the protocol thread that break no fence but
 * starve or crash the neighbours. Each case asserts the attack's outcome and that a neighbour on
 * the same sandbox thread kept working.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import { SandboxError } from "./errors.js";
import { BUDGET_SLICES, WINDOW_SLICES } from "./engine/cpu-budget.js";
import { MAX_BUNDLE_CHARS, MAX_EMIT_JSON_CHARS } from "./limits.js";
import { UPDATE, optionsFor, recorder, updateBundle, type Recorder } from "./sandbox.fixtures.js";
import type { SandboxHandle, SandboxLimits } from "./types.js";

const SLICE = 300;
const pools: SandboxPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.dispose()));
});

/** A pool of one sandbox thread, so attacker and neighbour share it. */
function onePool(): SandboxPool {
  const pool = new SandboxPool({ threads: 1, watchdogMarginMs: 100 });
  pools.push(pool);
  return pool;
}

async function sandboxIn(
  pool: SandboxPool,
  body: string,
  extra: { id?: string; limits?: Partial<SandboxLimits> } = {},
  rec: Recorder = recorder(),
) {
  const sandbox = await pool.create(
    optionsFor(updateBundle(body), { ...extra, limits: { sliceMs: SLICE, ...extra.limits } }),
    rec,
  );
  await sandbox.load();
  return { sandbox, rec };
}

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    return error as SandboxError;
  }
  throw new Error("expected the call to fail");
}

/** A neighbour whose update makes `steps` awaited host calls: each step waits for the thread. */
const STEPS = 30;
const NEIGHBOUR = `let n = 0; for (let i = 0; i < ${STEPS}; i++) { await ctx.secrets.get("s"); n++; } return n;`;

describe("CPU budget", () => {
  it("near-limit bursts on a timer are throttled, and a neighbour's many-step run goes on between them", async () => {
    const pool = onePool();
    // Each burst is a fixed amount of work (~90 % of the slice in CPU time here; interrupted on
    // a slower machine, which counts the same), so it costs the same CPU however busy the
    // machine is, and counts as a near-limit slice.
    const burst = `let x = 0; for (let i = 0; i < 6e6; i++) x = (x + i * 7) % 1000003;`;
    const attacker = await sandboxIn(pool, `setInterval(() => { ${burst} }, 0); return "started";`);
    const neighbour = await sandboxIn(pool, NEIGHBOUR);
    await expect(attacker.sandbox.invoke(UPDATE)).resolves.toBe("started");
    const bursts = async () => {
      const { nearLimitSlices, interruptedSlices } = await attacker.sandbox.diagnostics();
      return Math.max(nearLimitSlices, interruptedSlices);
    };
    // Its budget (a quarter of the thread's time, near-limit slices charged double) runs out
    // after a few bursts, however slowly a loaded machine runs them.
    await vi.waitFor(() => expect(attacker.rec.events.length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
    expect(attacker.rec.events[0]).toEqual({
      type: "throttled",
      waitMs: expect.any(Number),
      budgetMs: BUDGET_SLICES * SLICE,
      windowMs: WINDOW_SLICES * SLICE,
    });
    const before = await bursts();
    await expect(neighbour.sandbox.invoke(UPDATE)).resolves.toBe(STEPS);
    // Unthrottled, each of the neighbour's steps waits for one burst (about STEPS bursts).
    expect((await bursts()) - before).toBeLessThan(STEPS / 3);
    expect((await attacker.sandbox.diagnostics()).throttles).toBeGreaterThan(0);
    expect(neighbour.rec.crashes).toEqual([]);
    expect(neighbour.rec.events).toEqual([]);
  });

  it("a sandbox within its budget is never throttled", async () => {
    const pool = onePool();
    const light = await sandboxIn(pool, `const t = Date.now(); while (Date.now() - t < 20); return 1;`);
    for (let i = 0; i < 5; i++) await expect(light.sandbox.invoke(UPDATE)).resolves.toBe(1);
    expect(light.rec.events).toEqual([]);
    expect((await light.sandbox.diagnostics()).throttles).toBe(0);
  });
});

describe("offender isolation", () => {
  it("after its first native stall, an extension runs on a thread of its own: its next stall crashes no neighbour", async () => {
    const pool = onePool();
    const stall = `return (new Array(1e9) + "").length;`;
    const neighbourRec = recorder();
    const first = await sandboxIn(pool, stall, { id: "test.offender" });
    const neighbour = await sandboxIn(pool, `return "neighbour";`, { id: "test.neighbour" }, neighbourRec);
    expect((await failure(first.sandbox.invoke(UPDATE))).message).toBe(
      `the sandbox crashed: interrupted: slice over ${SLICE} ms inside a native call`,
    );
    // The first time, the whole thread ends: the neighbour is told (not guilty) and recreated.
    expect(neighbourRec.crashes).toEqual([
      { reason: expect.stringMatching(/test\.offender got stuck in a native call/), guilty: false },
    ]);
    await neighbour.sandbox.dispose();
    const again = recorder();
    const recreated = await sandboxIn(pool, `return "neighbour";`, { id: "test.neighbour" }, again);
    const second = await sandboxIn(pool, stall, { id: "test.offender" });
    expect((await pool.stats()).map((thread) => thread.sandboxes).sort()).toEqual([1, 1]);
    expect((await failure(second.sandbox.invoke(UPDATE))).code).toBe("crashed");
    expect(second.rec.crashes).toEqual([
      { reason: `interrupted: slice over ${SLICE} ms inside a native call`, guilty: true },
    ]);
    expect(again.crashes).toEqual([]);
    await expect(recreated.sandbox.invoke(UPDATE)).resolves.toBe("neighbour");
    expect((await pool.stats()).map((thread) => thread.sandboxes)).toEqual([1]);
  });
});

describe("the protocol thread", () => {
  it(`an emit of exactly ${MAX_EMIT_JSON_CHARS} characters of JSON crosses; one more is refused in the guest, before it leaves the sandbox thread`, async () => {
    const pool = onePool();
    const overhead = JSON.stringify({ blip: { key: "k", s: "" } }).length;
    const ok = await sandboxIn(
      pool,
      `await ctx.emit({ key: "k", s: "x".repeat(${MAX_EMIT_JSON_CHARS - overhead}) }); return "sent";`,
    );
    await expect(ok.sandbox.invoke(UPDATE)).resolves.toBe("sent");
    expect(ok.rec.calls.map((call) => call.op)).toEqual(["emit"]);
    const over = await sandboxIn(
      pool,
      `try { await ctx.emit({ key: "k", s: "x".repeat(1024 * 1024) }) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(over.sandbox.invoke(UPDATE)).resolves.toBe(
      `RangeError: emit: the arguments are ${1024 * 1024 + overhead} characters of JSON, over the limit of ${MAX_EMIT_JSON_CHARS}`,
    );
    expect(over.rec.calls).toEqual([]);
    const justOver = await sandboxIn(
      pool,
      `try { await ctx.emit({ key: "k", s: "x".repeat(${MAX_EMIT_JSON_CHARS - overhead + 1}) }) } catch (e) { return e.message }`,
    );
    await expect(justOver.sandbox.invoke(UPDATE)).resolves.toBe(
      `emit: the arguments are ${MAX_EMIT_JSON_CHARS + 1} characters of JSON, over the limit of ${MAX_EMIT_JSON_CHARS}`,
    );
    await expect(ok.sandbox.invoke(UPDATE)).resolves.toBe("sent");
  });
});

describe("the parser", () => {
  it("3,000 nested parentheses parse (as on Node); 100,000 are a catchable RangeError, in eval and in the bundle; the neighbour runs on", async () => {
    const pool = onePool();
    const neighbourRec = recorder();
    const neighbour = await sandboxIn(pool, `return "neighbour";`, {}, neighbourRec);
    // The 1 MB QuickJS stack (limits.ts) holds 3,000 levels; far deeper is a clean guest error.
    for (const [depth, answer] of [
      [3000, 1],
      [100_000, "RangeError: Maximum call stack size exceeded"],
    ] as const) {
      const nested = await sandboxIn(
        pool,
        `try { return eval("(".repeat(${depth}) + "1" + ")".repeat(${depth})); } catch (e) { return e.name + ": " + e.message; }`,
      );
      await expect(nested.sandbox.invoke(UPDATE)).resolves.toBe(answer);
      expect(nested.rec.crashes).toEqual([]);
    }
    const bundleRec = recorder();
    const bundle = await pool.create(
      optionsFor(`module.exports = ${"(".repeat(100_000)}1${")".repeat(100_000)};`),
      bundleRec,
    );
    const error = await failure(bundle.load());
    expect({ code: error.code, message: error.message }).toEqual({
      code: "guest",
      message: "Maximum call stack size exceeded",
    });
    expect(bundleRec.crashes).toEqual([]);
    expect(neighbourRec.crashes).toEqual([]);
    await expect(neighbour.sandbox.invoke(UPDATE)).resolves.toBe("neighbour");
  });
});

describe("bundle size", () => {
  it(`a bundle of exactly ${MAX_BUNDLE_CHARS} characters loads; one more is refused, saying by how much`, async () => {
    const pool = onePool();
    const code = (length: number) => {
      const head = `module.exports = { update() { return "big"; } };\n//`;
      return head + "x".repeat(length - head.length);
    };
    const atLimit: SandboxHandle = await pool.create(optionsFor(code(MAX_BUNDLE_CHARS)), recorder());
    await atLimit.load();
    await expect(atLimit.invoke(UPDATE)).resolves.toBe("big");
    const error = await failure(pool.create(optionsFor(code(MAX_BUNDLE_CHARS + 1)), recorder()));
    expect({ code: error.code, message: error.message }).toEqual({
      code: "guest",
      message: "the bundle is 5 MB, over the limit of 5 MB: leave out unused dependencies or load data at run time",
    });
    await expect(atLimit.invoke(UPDATE)).resolves.toBe("big");
  });
});
