/**
 * Red team: each case runs one attack in its own sandbox and asserts the exact outcome, then
 * checks that a neighbour sandbox in the same pool still answers. Network, exec and file
 * attacks live with the capabilities (capabilities/*.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import { SandboxError } from "./errors.js";
import { MAX_CALL_JSON_CHARS, MAX_JSON_DEPTH, MAX_LOG_CHARS } from "./limits.js";
import { UPDATE, optionsFor, recorder, updateBundle, type Recorder } from "./sandbox.fixtures.js";
import type { SandboxHandle, SandboxLimits } from "./types.js";

const INTERRUPTED = "interrupted: the extension's code ran for more than 300 ms without pausing";
/** Attacks expected to be interrupted run with a short slice, to keep the suite fast. */
const SHORT = { sliceMs: 300 };
const OOM = "the sandbox crashed: out of memory: the extension used more than its 16 MB";

let pool: SandboxPool;
let neighbour: SandboxHandle;
let neighbourRec: Recorder;

beforeAll(async () => {
  pool = new SandboxPool({ threads: 2 });
  neighbourRec = recorder();
  neighbour = await pool.create(optionsFor(updateBundle(`return { alive: true };`)), neighbourRec);
  await neighbour.load();
});

afterAll(() => pool.dispose());

async function attack(body: string, limits: Partial<SandboxLimits> = {}, rec: Recorder = recorder()) {
  const sandbox = await pool.create(
    optionsFor(updateBundle(body), { limits: { sliceMs: 1000, memoryBytes: 16 * 1024 * 1024, ...limits } }),
    rec,
  );
  await sandbox.load();
  return { sandbox, rec, run: () => sandbox.invoke(UPDATE) };
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

async function expectNeighbourAnswers(): Promise<void> {
  expect(neighbourRec.crashes).toEqual([]);
  await expect(neighbour.invoke(UPDATE)).resolves.toEqual({ alive: true });
}

describe("reaching Node", () => {
  it.each([
    ["fs", 'module "fs" is not available in the extension sandbox; use ctx.files'],
    ["net", 'module "net" is not available in the extension sandbox; use fetch() or WebSocket'],
    ["node:child_process", 'module "node:child_process" is not available in the extension sandbox; use ctx.exec()'],
    ["child_process", 'module "child_process" is not available in the extension sandbox; use ctx.exec()'],
    ["https", 'module "https" is not available in the extension sandbox; use fetch()'],
    ["node:http", 'module "node:http" is not available in the extension sandbox; use fetch()'],
    ["worker_threads", 'module "worker_threads" is not available in the extension sandbox'],
    ["left-pad", 'module "left-pad" is not available in the extension sandbox'],
  ])("require(%j) throws the exact refusal and is recorded", async (name, message) => {
    const { sandbox, rec } = await attack(`try { require(${JSON.stringify(name)}) } catch (e) { return e.message }`);
    await expect(sandbox.invoke(UPDATE)).resolves.toBe(message);
    const denied = (await sandbox.diagnostics()).denials;
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ kind: "module", target: name });
    expect(rec.events.some((e) => e.type === "denied")).toBe(true);
    await expectNeighbourAnswers();
  });

  it("a require at load time fails the load with the refusal", async () => {
    const sandbox = await pool.create(optionsFor(`const fs = require("fs"); module.exports = {};`), recorder());
    const error = await failure(sandbox.load());
    expect(error.code).toBe("guest");
    expect(error.message).toBe('module "fs" is not available in the extension sandbox; use ctx.files');
    await expectNeighbourAnswers();
  });

  it("import() of a built-in rejects with the same refusal", async () => {
    const { run } = await attack(`try { await import("node:fs") } catch (e) { return e.message }`);
    await expect(run()).resolves.toBe('module "node:fs" is not available in the extension sandbox; use ctx.files');
    await expectNeighbourAnswers();
  });

  it("nothing of Node exists: process, Buffer, global, require, setImmediate", async () => {
    const { run } = await attack(
      `return [typeof process, typeof Buffer, typeof global, typeof globalThis.require, typeof setImmediate, typeof __svc_call, typeof __svc_callSync, typeof __svc_entry]`,
    );
    await expect(run()).resolves.toEqual(Array(8).fill("undefined"));
    await expectNeighbourAnswers();
  });

  it("the constructor chain reaches only the guest's own Function", async () => {
    const { run } = await attack(`
      const viaCtor = this.constructor.constructor("return typeof process")();
      let thrown; try { this.constructor.constructor("return process")() } catch (e) { thrown = e.name + ": " + e.message }
      return { viaCtor, thrown };`);
    await expect(run()).resolves.toEqual({ viaCtor: "undefined", thrown: "ReferenceError: process is not defined" });
    await expectNeighbourAnswers();
  });

  it('Function("return this")() is a global object holding no bridge and no Node', async () => {
    const { run } = await attack(`return Object.getOwnPropertyNames(Function("return this")())`);
    const names = (await run()) as string[];
    expect(names).toContain("console");
    expect(names.filter((n) => /^__svc|^process$|^require$|^Buffer$|^module$|^global$/.test(n))).toEqual([]);
    await expectNeighbourAnswers();
  });

  it("stack traces name only guest files, even inside host-driven callbacks", async () => {
    const { run } = await attack(`
      Error.prepareStackTrace = (e, frames) => frames.map((f) => String(f.getFileName()));
      const files = await new Promise((resolve) => setTimeout(() => resolve(new Error("x").stack), 1));
      Error.prepareStackTrace = undefined;
      const plain = await new Promise((resolve) => setTimeout(() => resolve(new Error("y").stack), 1));
      return { files, plain };`);
    const { files, plain } = (await run()) as { files: string[]; plain: string };
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(["dist/index.js", "svc:prelude.js"]).toContain(file);
    expect(plain).not.toMatch(/file:|node:|\/work\/|node_modules/);
    await expectNeighbourAnswers();
  });
});

describe("prototype pollution across the bridge", () => {
  it("a __proto__ key in an update result never reaches a host prototype", async () => {
    const { run } = await attack(`return JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}')`);
    const result = (await run()) as Record<string, unknown>;
    expect(result).toEqual({ ok: 1 });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.assign({}, result) as Record<string, unknown>).polluted).toBeUndefined();
    await expectNeighbourAnswers();
  });

  it("a __proto__ key in emitted data is dropped before the host sees it", async () => {
    const rec = recorder();
    const { run } = await attack(
      `await ctx.emit(JSON.parse('{"key": "k", "__proto__": {"isAdmin": true}, "data": {"__proto__": {"x": 1}}}'))`,
      {},
      rec,
    );
    await run();
    const blip = (rec.calls.find((c) => c.op === "emit")!.args as { blip: Record<string, unknown> }).blip;
    expect(blip).toEqual({ key: "k", data: {} });
    expect(Object.hasOwn(blip, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    await expectNeighbourAnswers();
  });

  it("a guest polluting its own Object.prototype changes nothing on the host", async () => {
    const { run } = await attack(`Object.prototype.polluted = "yes"; Array.prototype.evil = 1; return { list: [1] }`);
    const result = (await run()) as { list: number[] };
    expect(result).toEqual({ list: [1] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).evil).toBeUndefined();
    await expectNeighbourAnswers();
  });
});

describe("memory bombs", () => {
  it("string doubling ends in a catchable 'string too long' guest error", async () => {
    const { run } = await attack(`let s = "x"; for (;;) s += s;`, { memoryBytes: 64 * 1024 * 1024 });
    const error = await failure(run());
    expect(error.code).toBe("guest");
    expect(error.message).toBe("string too long");
    await expectNeighbourAnswers();
  });

  it("one huge typed array is refused with a RangeError", async () => {
    const { run } = await attack(`try { new Uint8Array(2 ** 31) } catch (e) { return e.name + ": " + e.message }`);
    await expect(run()).resolves.toBe("RangeError: invalid array buffer length");
    await expectNeighbourAnswers();
  });

  it("retained typed arrays hit the hard cap: the sandbox crashes, guilty, and nothing else does", async () => {
    const { run, rec } = await attack(`const keep = []; for (;;) keep.push(new Uint8Array(1 << 20));`);
    const error = await failure(run());
    expect(error.code).toBe("crashed");
    expect(error.message).toBe(OOM);
    expect(rec.crashes).toEqual([{ reason: "out of memory: the extension used more than its 16 MB", guilty: true }]);
    expect(rec.events.some((e) => e.type === "memory-limit")).toBe(true);
    await expectNeighbourAnswers();
  });

  it("a growing array of objects is stopped (memory cap or slice limit) and the sandbox stays contained", async () => {
    const { run } = await attack(`const a = []; for (;;) a.push({ k: "v", n: a.length });`, SHORT);
    const error = await failure(run());
    expect([OOM, INTERRUPTED]).toContain(error.message);
    await expectNeighbourAnswers();
  });

  it("after an out-of-memory crash the handle refuses further calls with a clear error", async () => {
    const { sandbox, run } = await attack(`const keep = []; for (;;) keep.push(new Uint8Array(1 << 20));`);
    await failure(run());
    const error = await failure(sandbox.invoke(UPDATE));
    expect(error.code).toBe("crashed");
    await sandbox.dispose();
    await expectNeighbourAnswers();
  });
});

describe("infinite loops", () => {
  it("a busy loop is interrupted at the slice limit and the sandbox keeps working", async () => {
    const { run, rec, sandbox } = await attack(
      `globalThis.n = (globalThis.n ?? 0) + 1; if (globalThis.n === 1) for (;;) {} return globalThis.n;`,
      SHORT,
    );
    const error = await failure(run());
    expect(error.code).toBe("interrupted");
    expect(error.message).toBe(INTERRUPTED);
    // Slices are timed in the thread's CPU time (wall time grows with the machine's load).
    const { longestSliceMs } = await sandbox.diagnostics();
    expect(longestSliceMs).toBeGreaterThanOrEqual(SHORT.sliceMs);
    expect(longestSliceMs).toBeLessThan(SHORT.sliceMs + 200);
    expect(rec.events).toContainEqual({ type: "interrupted", sliceMs: 300 });
    await expect(run()).resolves.toBe(2);
    await expectNeighbourAnswers();
  });

  it("try/catch cannot swallow the interrupt", async () => {
    const { run } = await attack(`try { for (;;) {} } catch (e) { return "swallowed" }`, SHORT);
    expect((await failure(run())).message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });

  it("a loop at load time fails the load with the interrupt", async () => {
    const sandbox = await pool.create(optionsFor(`for (;;) {}`, { limits: SHORT }), recorder());
    const error = await failure(sandbox.load());
    expect(error.code).toBe("interrupted");
    expect(error.message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });

  it("an endless microtask chain is interrupted", async () => {
    const { run } = await attack(
      `const spin = () => { Promise.resolve().then(spin); }; spin(); await new Promise(() => {});`,
      SHORT,
    );
    expect((await failure(run())).message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });

  it("a loop inside a timer callback is interrupted and fails the call waiting on it", async () => {
    const { run, sandbox } = await attack(
      `setTimeout(() => { for (;;) {} }, 1); await new Promise((r) => setTimeout(r, 200)); return "late";`,
      SHORT,
    );
    expect((await failure(run())).message).toBe(INTERRUPTED);
    expect((await sandbox.diagnostics()).interruptedSlices).toBe(1);
    await expectNeighbourAnswers();
  });

  it("catastrophic regex backtracking is interrupted", async () => {
    const { run } = await attack(`return /(a+)+$/.test("a".repeat(40) + "b");`, SHORT);
    expect((await failure(run())).message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });
});

describe("deep recursion", () => {
  it("plain recursion is a clean guest RangeError and the sandbox keeps working", async () => {
    const { run } = await attack(`
      function f() { return f() + 1 }
      try { f() } catch (e) { return e.name + ": " + e.message }`);
    await expect(run()).resolves.toBe("RangeError: Maximum call stack size exceeded");
    await expect(run()).resolves.toBe("RangeError: Maximum call stack size exceeded");
    await expectNeighbourAnswers();
  });

  it("recursion inside a native built-in (JSON.parse of deep nesting) is a clean guest error", async () => {
    const { run } = await attack(`try { JSON.parse("[".repeat(1e6)) } catch (e) { return e.name + ": " + e.message }`);
    await expect(run()).resolves.toBe("RangeError: Maximum call stack size exceeded");
    await expectNeighbourAnswers();
  });
});

describe("floods", () => {
  it("a promise flood is interrupted", async () => {
    const { run } = await attack(`for (let i = 0; i < 1e7; i++) Promise.resolve().then(() => {});`, {
      ...SHORT,
      memoryBytes: 64 * 1024 * 1024,
    });
    const error = await failure(run());
    expect([INTERRUPTED, "the sandbox crashed: out of memory: the extension used more than its 64 MB"]).toContain(
      error.message,
    );
    await expectNeighbourAnswers();
  });

  it("a timer flood stops at 1000 pending timers with a clear error; the host holds no more", async () => {
    const { sandbox, run } = await attack(`
      let made = 0;
      try { for (let i = 0; i < 100000; i++) { setTimeout(() => {}, 600000); made++; } } catch (e) { return [made, e.message] }`);
    await expect(run()).resolves.toEqual([1000, "setTimeout: too many timers pending (limit 1000)"]);
    for (const thread of await pool.stats()) expect(thread.activeResources).toBeLessThan(1100);
    await sandbox.dispose();
    await expectNeighbourAnswers();
  });

  it("a console flood delivers 1000 lines, then one line saying how many were dropped", async () => {
    const rec = recorder();
    const { run } = await attack(`for (let i = 0; i < 20000; i++) console.log("line " + i); return "done";`, {}, rec);
    await expect(run()).resolves.toBe("done");
    await vi.waitFor(() => expect(rec.logs()).toHaveLength(1001));
    const lines = rec.logs();
    expect(lines[0]).toBe("line 0");
    expect(lines[999]).toBe("line 999");
    expect(lines[1000]).toBe("console: 19000 lines dropped (more than 1000 were waiting to be written)");
    await expectNeighbourAnswers();
  });

  it("a giant console message is cut to 8 KB, saying how much was cut", async () => {
    const rec = recorder();
    const { run } = await attack(`console.log("x".repeat(5e6)); return 1;`, { memoryBytes: 64 * 1024 * 1024 }, rec);
    await run();
    const [line] = rec.logs();
    const kept = MAX_LOG_CHARS - 40;
    expect(line.length).toBeLessThanOrEqual(MAX_LOG_CHARS);
    expect(line.startsWith("x".repeat(kept) + "…")).toBe(true);
    expect(line.slice(kept)).toBe(`… (${5e6 - kept} more characters)`);
    await expectNeighbourAnswers();
  });
});

describe("marshalling bombs", () => {
  const nested = (depth: number) => `let o = { key: "k" }; for (let i = 1; i < ${depth}; i++) o = { o };`;

  it(`nesting of exactly ${MAX_JSON_DEPTH} levels crosses; one more is refused`, async () => {
    const rec = recorder();
    // emit's args wrap the blip in {blip: …}: one level of the budget.
    const ok = await attack(`${nested(MAX_JSON_DEPTH - 1)} await ctx.emit(o); return "sent";`, {}, rec);
    await expect(ok.run()).resolves.toBe("sent");
    const over = await attack(
      `${nested(MAX_JSON_DEPTH)} try { await ctx.emit(o) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(over.run()).resolves.toBe(
      `RangeError: emit: the arguments are nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    await expectNeighbourAnswers();
  });

  it("very deep nesting is stopped at the limit, before QuickJS's stringify slows down", async () => {
    const { run } = await attack(
      `${nested(100000)} try { await ctx.emit(o) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(run()).resolves.toBe(
      `RangeError: emit: the arguments are nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    await expectNeighbourAnswers();
  });

  it("a cyclic object fails in the guest with a TypeError", async () => {
    const { run } = await attack(
      `const a = { key: "k" }; a.self = a; try { await ctx.emit(a) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(run()).resolves.toBe("TypeError: circular reference");
    await expectNeighbourAnswers();
  });

  it(`arguments of exactly ${MAX_CALL_JSON_CHARS} characters cross; one more is refused`, async () => {
    const rec = recorder();
    // (setPreference: emit has its own, smaller cap; see red-team-fairness.test.ts)
    const overhead = JSON.stringify({ name: "p", value: "" }).length;
    const ok = await attack(
      `await ctx.setPreference("p", "x".repeat(${MAX_CALL_JSON_CHARS - overhead})); return "sent";`,
      {},
      rec,
    );
    await expect(ok.run()).resolves.toBe("sent");
    expect((rec.calls[0].args as { value: string }).value).toHaveLength(MAX_CALL_JSON_CHARS - overhead);
    const over = await attack(
      `try { await ctx.setPreference("p", "x".repeat(${MAX_CALL_JSON_CHARS - overhead + 1})) } catch (e) { return e.message }`,
    );
    await expect(over.run()).resolves.toBe(
      `preferences.set: the arguments are ${MAX_CALL_JSON_CHARS + 1} characters of JSON, over the limit of ${MAX_CALL_JSON_CHARS}`,
    );
    await expectNeighbourAnswers();
  });

  it("a huge sparse array passed to storage is refused by size", async () => {
    const { run } = await attack(
      `const a = []; a[3e5] = 1; try { await ctx.storage.set("k", a) } catch (e) { return e.message }`,
    );
    const length = JSON.stringify({ key: "k", value: [...Array(3e5).fill(null), 1] }).length;
    await expect(run()).resolves.toBe(
      `storage.set: the arguments are ${length} characters of JSON, over the limit of ${MAX_CALL_JSON_CHARS}`,
    );
    await expectNeighbourAnswers();
  });
});

describe("getters, Proxy and toJSON passed to host calls", () => {
  it("getters run in the guest; the host receives plain data", async () => {
    const rec = recorder();
    const { run } = await attack(`await ctx.emit({ get key() { return "from-getter" } }); return 1;`, {}, rec);
    await run();
    const blip = (rec.calls[0].args as { blip: object }).blip;
    expect(Object.getOwnPropertyDescriptor(blip, "key")).toEqual({
      value: "from-getter",
      writable: true,
      enumerable: true,
      configurable: true,
    });
    await expectNeighbourAnswers();
  });

  it("a Proxy whose trap never returns is interrupted in the guest", async () => {
    const { run } = await attack(`await ctx.emit(new Proxy({}, { ownKeys() { for (;;) {} } }));`, SHORT);
    expect((await failure(run())).message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });

  it("a throwing toJSON fails the guest call with its own error", async () => {
    const { run } = await attack(
      `try { await ctx.emit({ toJSON() { throw new TypeError("nope") } }) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(run()).resolves.toBe("TypeError: nope");
    await expectNeighbourAnswers();
  });

  it("a toJSON returning a non-object is refused by the op's shape check", async () => {
    const { run } = await attack(
      `try { await ctx.remove({ toJSON() { return 42 } }) } catch (e) { return e.name + ": " + e.message }`,
    );
    await expect(run()).resolves.toBe('TypeError: remove: "key" should be a string');
    await expectNeighbourAnswers();
  });
});

describe("native stalls (the interrupt handler cannot stop them; the watchdog does)", () => {
  const SLICE = 300;
  const MARGIN = 250;
  let stallPool: SandboxPool;

  beforeAll(() => {
    stallPool = new SandboxPool({ threads: 1, watchdogMarginMs: MARGIN });
  });
  afterAll(() => stallPool.dispose());

  /** Largest delay of a 10 ms interval on this (the owner's) thread while `work` runs. */
  async function maxEventLoopLag(work: Promise<unknown>): Promise<number> {
    let last = performance.now();
    let worst = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last - 10);
      last = now;
    }, 10);
    await work.catch(() => {});
    clearInterval(timer);
    return worst;
  }

  it.each([
    ["array join", `return (new Array(1e9) + "").length;`],
    [
      "quadratic JSON.stringify of deep nesting",
      `let o = {}; for (let i = 0; i < 20000; i++) o = { o }; return JSON.stringify(o).length;`,
    ],
  ])(
    "%s: the thread is ended within sliceMs + margin, the guilty crashes, the neighbour is told and can be recreated",
    async (_name, body) => {
      const guiltyRec = recorder();
      const neighbourOnThread = recorder();
      const guilty = await stallPool.create(optionsFor(updateBundle(body), { limits: { sliceMs: SLICE } }), guiltyRec);
      const sameThread = await stallPool.create(
        optionsFor(updateBundle(`return "neighbour";`), { limits: { sliceMs: SLICE } }),
        neighbourOnThread,
      );
      await guilty.load();
      await sameThread.load();
      const started = performance.now();
      const attackRun = guilty.invoke(UPDATE);
      const lag = await maxEventLoopLag(attackRun);
      const elapsed = performance.now() - started;
      const error = await failure(attackRun);
      expect(error.code).toBe("crashed");
      expect(error.message).toBe(`the sandbox crashed: interrupted: slice over ${SLICE} ms inside a native call`);
      expect(elapsed).toBeGreaterThanOrEqual(SLICE + MARGIN - 20);
      // The watchdog counts the thread's CPU time, so on a loaded machine this takes longer in
      // wall time (slices-under-load.test.ts); typically ~SLICE + MARGIN + 5 ms on an idle one.
      expect(elapsed).toBeLessThan(30 * (SLICE + MARGIN));
      // The owner never waits on the stalled guest: its event loop lags far less than the stall
      // lasts (a busy machine stretches both, the stall by its CPU-time rule).
      expect(lag).toBeLessThan(Math.max(250, elapsed / 2));
      expect(guiltyRec.crashes).toEqual([
        { reason: `interrupted: slice over ${SLICE} ms inside a native call`, guilty: true },
      ]);
      expect(neighbourOnThread.crashes).toHaveLength(1);
      expect(neighbourOnThread.crashes[0].guilty).toBe(false);
      expect(neighbourOnThread.crashes[0].reason).toMatch(/got stuck in a native call; create the sandbox again$/);
      expect((await failure(sameThread.invoke(UPDATE))).code).toBe("crashed");
      const recreated = await stallPool.create(optionsFor(updateBundle(`return "neighbour";`)), recorder());
      await recreated.load();
      await expect(recreated.invoke(UPDATE)).resolves.toBe("neighbour");
      await expectNeighbourAnswers();
    },
  );
});

describe("host memory held for a guest", () => {
  it("async calls in flight may carry at most 16 MB of JSON together", async () => {
    const rec = recorder();
    let forwarded = 0;
    rec.forwarded.forward = () => {
      forwarded++;
      return new Promise(() => {}); // the owner never answers: everything stays in flight
    };
    const { run } = await attack(
      `
      const big = "x".repeat(1000 * 1000);
      const sent = [];
      for (let i = 0; i < 20; i++) sent.push(ctx.setPreference("k" + i, big).then(() => "answered", (e) => e.message));
      return await Promise.all(sent.slice(16));`,
      { sliceMs: 5000 },
      rec,
    );
    const refused = `preferences.set: too much data in flight to the host (limit ${16 * 1024 * 1024} characters of JSON)`;
    await expect(run()).resolves.toEqual([refused, refused, refused, refused]);
    await vi.waitFor(() => expect(forwarded).toBe(16));
    await expectNeighbourAnswers();
  });
});

describe("slow host calls in a loop", () => {
  it("a loop of costly bridge calls is still stopped at the slice limit, not by the watchdog", async () => {
    const { run } = await attack(
      `
      const big = "x".repeat(1000 * 1000);
      for (;;) { try { crypto.getRandomValues(new Uint8Array(65536)); JSON.stringify({ big }); ctx.emit({ key: "k", big }).catch(() => {}); } catch {} }`,
      SHORT,
    );
    const error = await failure(run());
    expect(error.code).toBe("interrupted");
    expect(error.message).toBe(INTERRUPTED);
    await expectNeighbourAnswers();
  });
});
