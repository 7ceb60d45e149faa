/**
 * Red team, floods of timers and log lines: counts were capped (1000 timers, 1000 lines
 * waiting), rates were not: 1000 re-armed 0 ms timers burned a core, and a log flood sent
 * 21–25 MB/s to the host. Each case measures the attack on the real pool and checks that a
 * neighbour on the same sandbox thread kept working.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import {
  LOG_BURST_CHARS,
  LOG_CHARS_PER_SECOND,
  LOG_DROP_NOTICE_MS,
  LOG_LINE_COST_CHARS,
  MAX_TIMERS,
  TIMER_FIRINGS_BURST,
  TIMER_FIRINGS_PER_SECOND,
} from "./limits.js";
import { droppedLinesNotice } from "./bridge/log-gate.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "./sandbox.fixtures.js";

const pools: SandboxPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.dispose()));
});

/** The count a dropped-lines warning states. */
const droppedCount = (notice: string) => Number(/^(\d+) log lines? dropped /.exec(notice)?.[1] ?? NaN);

/** A pool of one sandbox thread, so attacker and neighbour share it. */
function onePool(): SandboxPool {
  const pool = new SandboxPool({ threads: 1 });
  pools.push(pool);
  return pool;
}

async function sandboxIn(pool: SandboxPool, body: string) {
  const rec = recorder();
  const sandbox = await pool.create(optionsFor(updateBundle(body)), rec);
  await sandbox.load();
  return { sandbox, rec };
}

/** A neighbour that sleeps 20 ms twenty times and returns how late each wake-up was, in ms. */
const SLEEPER = `const late = []; for (let i = 0; i < 20; i++) { const t = Date.now(); await new Promise((r) => setTimeout(r, 20)); late.push(Date.now() - t - 20); } return late;`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe("timer floods", () => {
  it(`${MAX_TIMERS} timers due at once (the burst) all fire at once: none waits for the budget`, async () => {
    const pool = onePool();
    const { sandbox } = await sandboxIn(
      pool,
      `
      let fired = 0;
      await new Promise((resolve) => { for (let i = 0; i < ${MAX_TIMERS}; i++) setTimeout(() => { if (++fired === ${MAX_TIMERS}) resolve(); }, 0); });
      return fired;`,
    );
    await expect(sandbox.invoke(UPDATE)).resolves.toBe(MAX_TIMERS);
    expect((await sandbox.diagnostics()).delayedTimers).toBe(0);
  });

  it(`${MAX_TIMERS} timers re-armed at 0 ms for 1 s: paced to ${TIMER_FIRINGS_PER_SECOND} firings a second, a fraction of a core, none dropped; a neighbour's timers fire on time`, async () => {
    const pool = onePool();
    // Each chain re-arms until its second is up, then counts itself done: every chain must end.
    const attacker = await sandboxIn(
      pool,
      `
      if (globalThis.flood) return globalThis.flood;
      const flood = globalThis.flood = { fired: 0, done: 0, start: Date.now(), last: 0 };
      const until = flood.start + 1000;
      for (let i = 0; i < ${MAX_TIMERS}; i++) {
        const chain = () => {
          flood.fired++;
          flood.last = Date.now();
          if (flood.last < until) setTimeout(chain, 0); else flood.done++;
        };
        setTimeout(chain, 0);
      }
      return "started";`,
    );
    const neighbour = await sandboxIn(pool, SLEEPER);
    const [before] = await pool.stats();
    const started = performance.now();
    await expect(attacker.sandbox.invoke(UPDATE)).resolves.toBe("started");
    const late = (await neighbour.sandbox.invoke(UPDATE)) as number[];
    type Flood = { fired: number; done: number; start: number; last: number };
    await vi.waitFor(async () => expect(((await attacker.sandbox.invoke(UPDATE)) as Flood).done).toBe(MAX_TIMERS), {
      timeout: 20_000,
      interval: 100,
    });
    const [after] = await pool.stats();
    const elapsed = performance.now() - started;
    const flood = (await attacker.sandbox.invoke(UPDATE)) as Flood;

    // At most the burst plus the rate over the flood's own time (it saw the clock move).
    expect(flood.fired).toBeLessThanOrEqual(
      TIMER_FIRINGS_BURST + ((flood.last - flood.start) * TIMER_FIRINGS_PER_SECOND) / 1000 + 20,
    );
    expect(flood.fired).toBeGreaterThan(TIMER_FIRINGS_BURST);
    const diagnostics = await attacker.sandbox.diagnostics();
    expect(diagnostics.delayedTimers).toBeGreaterThan(0);
    // Unpaced, the same flood kept the sandbox thread ~90 % busy; paced it is ~10 %. CPU time,
    // not wall time: a busy machine gives the thread less of both, never more CPU per second.
    const share = (after.cpuMs - before.cpuMs) / elapsed;
    expect(share).toBeLessThan(0.4);

    expect(late).toHaveLength(20);
    expect(median(late)).toBeLessThan(50);
    expect(neighbour.rec.crashes).toEqual([]);
    expect(attacker.rec.crashes).toEqual([]);
  }, 30_000);
});

describe("log floods", () => {
  it(`a log flood of 0.8 s delivers at most ${LOG_BURST_CHARS / 1024} KB plus ${LOG_CHARS_PER_SECOND / 1024} KB a second, then one warning with the count; a neighbour's lines all arrive`, async () => {
    const pool = onePool();
    const line = "x".repeat(1000);
    const attacker = await sandboxIn(
      pool,
      `
      const line = "x".repeat(1000);
      const start = Date.now();
      let sent = 0;
      await new Promise((resolve) => {
        const flood = setInterval(() => {
          if (Date.now() - start >= 800) { clearInterval(flood); resolve(); return; }
          for (let i = 0; i < 100; i++) { console.log(line); sent++; }
        }, 0);
      });
      return { sent, ms: Date.now() - start };`,
    );
    const neighbour = await sandboxIn(
      pool,
      `for (let i = 0; i < 10; i++) { console.log("neighbour " + i); await new Promise((r) => setTimeout(r, 20)); } return "neighbour";`,
    );
    const [flood, answer] = await Promise.all([
      attacker.sandbox.invoke(UPDATE) as Promise<{ sent: number; ms: number }>,
      neighbour.sandbox.invoke(UPDATE),
    ]);
    expect(answer).toBe("neighbour");

    const warning = () => attacker.rec.calls.filter((c) => (c.args as { level: string }).level === "warn");
    await vi.waitFor(() => expect(warning()).toHaveLength(1), { timeout: 5_000, interval: 50 });
    const delivered = attacker.rec.logs().filter((message) => message === line).length;
    const { droppedLogLines } = await attacker.sandbox.diagnostics();
    // The one warning counts every dropped line: none was dropped after it.
    expect(warning()[0].args).toEqual({ level: "warn", message: droppedLinesNotice(droppedLogLines) });
    expect(delivered + droppedLogLines).toBe(flood.sent);
    expect(attacker.rec.logs()).toHaveLength(delivered + 1);
    const cost = LOG_LINE_COST_CHARS + line.length;
    expect(delivered).toBeGreaterThanOrEqual(Math.floor(LOG_BURST_CHARS / cost));
    expect(delivered * cost).toBeLessThanOrEqual(LOG_BURST_CHARS + ((flood.ms + 100) * LOG_CHARS_PER_SECOND) / 1000);
    expect(droppedLogLines).toBeGreaterThan(delivered);

    expect(neighbour.rec.logs()).toEqual(Array.from({ length: 10 }, (_, i) => `neighbour ${i}`));
    expect(neighbour.rec.crashes).toEqual([]);
  }, 30_000);

  it("a flood of denials (each one a log line in the runtime) is paced the same way; a neighbour's denial still gets through", async () => {
    const pool = onePool();
    const attacker = await sandboxIn(
      pool,
      `
      const start = Date.now();
      let tries = 0;
      await new Promise((resolve) => {
        const flood = setInterval(() => {
          // Counted, not timed: on a busy machine 500 ms may hold only the burst's worth.
          if (tries >= 20000) { clearInterval(flood); resolve(); return; }
          for (let i = 0; i < 1000; i++) { try { require("fs"); } catch {} tries++; }
        }, 0);
      });
      return { tries, ms: Date.now() - start };`,
    );
    const neighbour = await sandboxIn(pool, `try { require("fs"); } catch (e) { return "refused"; }`);
    const flood = (await attacker.sandbox.invoke(UPDATE)) as { tries: number; ms: number };
    await expect(neighbour.sandbox.invoke(UPDATE)).resolves.toBe("refused");
    const denied = attacker.rec.events.filter((event) => event.type === "denied");
    const { droppedLogLines, denials } = await attacker.sandbox.diagnostics();
    expect(denied.length + droppedLogLines).toBe(flood.tries);
    const cost = (event: (typeof denied)[number]) => {
      const { target, reason, fix } = (event as Extract<typeof event, { type: "denied" }>).denial;
      return target.length + reason.length + (fix?.length ?? 0) + LOG_LINE_COST_CHARS;
    };
    expect(denied.reduce((sum, event) => sum + cost(event), 0)).toBeLessThanOrEqual(
      LOG_BURST_CHARS + ((flood.ms + 100) * LOG_CHARS_PER_SECOND) / 1000,
    );
    expect(droppedLogLines).toBeGreaterThan(denied.length);
    // Diagnostics keep the latest denials whatever was paced.
    expect(denials).toHaveLength(50);
    // One warning a LOG_DROP_NOTICE_MS while lines are dropped: one if the flood was quick, more
    // if a busy machine stretched it; together they count every dropped line.
    const notices = () =>
      attacker.rec.calls
        .map((c) => c.args as { level: string; message: string })
        .filter((line) => line.level === "warn")
        .map((line) => line.message);
    await vi.waitFor(
      () =>
        expect(
          notices()
            .map(droppedCount)
            .reduce((a, b) => a + b, 0),
        ).toBe(droppedLogLines),
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    expect(notices().length).toBeLessThanOrEqual(1 + Math.ceil(flood.ms / LOG_DROP_NOTICE_MS));
    for (const notice of notices()) expect(notice).toBe(droppedLinesNotice(droppedCount(notice)));
    expect(neighbour.rec.events.filter((event) => event.type === "denied")).toHaveLength(1);
  }, 30_000);

  it("errors thrown by a flood of timer callbacks are reported as lines, paced the same way", async () => {
    const pool = onePool();
    const attacker = await sandboxIn(
      pool,
      `
      const start = Date.now();
      await new Promise((resolve) => {
        const flood = setInterval(() => {
          if (Date.now() - start >= 500) { clearInterval(flood); resolve(); return; }
          throw new Error("e".repeat(5000));
        }, 0);
      });
      return "done";`,
    );
    await expect(attacker.sandbox.invoke(UPDATE)).resolves.toBe("done");
    await vi.waitFor(async () => expect((await attacker.sandbox.diagnostics()).droppedLogLines).toBeGreaterThan(0), {
      timeout: 5_000,
      interval: 50,
    });
    const chars = attacker.rec.logs().reduce((sum, message) => sum + message.length + LOG_LINE_COST_CHARS, 0);
    expect(chars).toBeLessThanOrEqual(LOG_BURST_CHARS + LOG_CHARS_PER_SECOND);
  }, 30_000);
});
