/**
 * One extension's sandbox, in the current thread: its own QuickJS-ng instance, the prelude, the
 * bridge, its limits and diagnostics. Sandbox threads run these; svckit may use one directly for a
 * quick one-shot load (no watchdog then: a stuck native call would stall that thread).
 */
import { mkdir, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { createCapabilities, formatDenial, type Capabilities, type CapabilityContext } from "./capabilities/index.js";
import { bundleScript, type ScriptResult } from "./engine/compiled-code/compiled-scripts.js";
import { SandboxError, interruptedMessage } from "./errors.js";
import { abortReason, untilAborted } from "./started-call.js";
import { HostBridge, errorRecord, type Reply } from "./engine/guest-calls.js";
import { callLean } from "./engine/lean-function.js";
import { InvocationOwners } from "./bridge/invocation-owners.js";
import { TimerOps } from "./bridge/timer-ops.js";
import { LogGate } from "./bridge/log-gate.js";
import { cutLogMessage } from "./bridge/forwarded-args.js";
import { CpuBudget } from "./engine/cpu-budget.js";
import type { QuickJSInstance } from "./engine/instance.js";
import {
  EMIT_ANSWERS_PER_SLICE,
  IN_THREAD_STACK_BYTES,
  MAX_DENIALS_KEPT,
  MAX_RESULT_JSON_CHARS,
  checkBundleSize,
  resolveLimits,
} from "./limits.js";
import { moduleRefusal } from "./engine/module-refusal.js";
import { IntlOps } from "./bridge/intl-ops.js";
import { SubtleOps } from "./bridge/subtle-ops.js";
import { createRouter } from "./bridge/op-router.js";
import { parseGuestJson } from "./engine/guest-json.js";
import { prepareInstance, type PreludeEntry, type PreparedInstance } from "./engine/prepared-instance.js";
import type { SliceRunner, SlicePlacement } from "./engine/slice-runner.js";
import type {
  Denial,
  Invocation,
  LoadResult,
  LogLevel,
  SandboxClock,
  SandboxDiagnostics,
  SandboxUsage,
  StartedCall,
  SandboxHandle,
  SandboxLimits,
  SandboxListeners,
  SandboxOptions,
} from "./types.js";

/** Where a sandbox runs: the sandbox thread's slice board and shared capabilities, when it has them. */
export interface SandboxEnvironment {
  placement?: SlicePlacement;
  capabilities?: Capabilities;
  /** The guest's local time zone (IANA name); default: the host process's. */
  timeZone?: string;
  /** The guest's default locale (a BCP 47 tag, `initialize`'s); default: the host process's. */
  locale?: string;
  /**
   * The guest's time (its `Date`, `performance.now()` and timers); default: the real clock.
   * Only for a sandbox in the current thread (the test kit's manual clock): a clock cannot cross
   * to a sandbox thread, and a prepared instance already has the real one.
   */
  clock?: SandboxClock;
  /**
   * An instance prepared ahead (a sandbox thread's spare) to bind instead of making one. Its
   * `memoryBytes` and `timeZone` must be this sandbox's; no guest code may have run in it.
   */
  prepared?: PreparedInstance;
  /**
   * This bundle's compiled form from an earlier load, which `load` runs instead of parsing the
   * source. Only ever the pool's code cache's own bytes: compiled code is trusted input.
   */
  compiledCode?: Uint8Array;
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  files: string[];
  /** A tool run: while one is in progress, slices may last the sandbox's `toolSliceMs`. */
  tool: boolean;
}

let sharedCapabilities: Capabilities | undefined;

/**
 * Longest a `diagnostics()` heap figure is reused, ms: a figure for a person (svckit dev, Settings),
 * measured again sooner when the interpreter's memory grew.
 */
export const HEAP_FIGURE_MS = 30_000;

/**
 * @example
 * const sandbox = await Sandbox.create(options, { host });
 * const loaded = await sandbox.load();
 * const result = await sandbox.invoke({ kind: "update", ctx: { preferences: {} } });
 * await sandbox.dispose();
 */
export class Sandbox implements SandboxHandle {
  private state: "ready" | "crashed" | "disposed" = "ready";
  /** Set after an out-of-memory, a trap or a Node stack overflow: never dispose such an instance normally. */
  private tainted = false;
  private readonly calls = new Map<number, PendingCall>();
  private nextCallId = 1;
  private readonly denials: Denial[] = [];
  private memoryLimitHits = 0;
  private lastHeapUsed = 0;
  /** When `lastHeapUsed` was measured (performance.now), and the linear memory's size then. */
  private heapMeasuredAt = -Infinity;
  private heapMeasuredBytes = 0;
  private usageAfterCall: SandboxUsage | undefined;
  private readonly lifetime = new AbortController();
  /** Slices waiting their turn, in order: answers to host calls, pushes (timers …) and, while throttled, invocations. */
  private readonly queue: (Reply | (() => void))[] = [];
  private flushing = false;
  /** A flush is queued as a microtask (answers to emits wait for it, to share a slice). */
  private flushQueued = false;
  /** Fair sharing of the sandbox thread (cpu-budget.ts). */
  private readonly budget: CpuBudget;
  /** Set while throttled: the flush that runs once the budget has room. */
  private throttleTimer: NodeJS.Timeout | undefined;
  private throttles = 0;
  /** Outcomes reported during the current slice (`invoke.done`), applied after it. */
  private settled: (() => void)[] = [];
  private readonly instance: QuickJSInstance;
  private readonly entry: PreludeEntry;
  private readonly bridge: HostBridge;
  private readonly slices: SliceRunner;
  private readonly timers: TimerOps;
  /** Every log line of this sandbox (the guest's, its own, its denials) is paced here. */
  private readonly logs: LogGate;
  /** Where this sandbox announces its slices (the sandbox thread's board), and the current slice's limit. */
  private placement: SlicePlacement | undefined;
  private sliceMs: number;
  /** WebCrypto keys of this sandbox, dropped with it. */
  private readonly subtle = new SubtleOps();
  private readonly owners = new InvocationOwners();
  /** The bundle's source, dropped once evaluated (the interpreter keeps what it needs). */
  private code: string | undefined;
  /** Its compiled form from the code cache, until load. */
  private compiledCode: Uint8Array | undefined;
  private parsed = false;
  private loaded: Promise<LoadResult> | undefined;

  private constructor(
    readonly id: string,
    private readonly options: Omit<SandboxOptions, "code">,
    code: string,
    private readonly limits: SandboxLimits,
    private readonly listeners: SandboxListeners,
    prepared: PreparedInstance,
    private readonly dataDir: string,
    private readonly supportDir: string | undefined,
    compiledCode: Uint8Array | undefined,
    private readonly clock: SandboxClock | undefined,
  ) {
    this.code = code;
    this.compiledCode = compiledCode;
    this.sliceMs = limits.sliceMs;
    ({ instance: this.instance, entry: this.entry, bridge: this.bridge, slices: this.slices } = prepared);
    this.timers = new TimerOps((callId) => {
      this.bridge.cancel(callId);
      this.owners.release(callId);
    }, clock);
    this.logs = new LogGate((line) => Promise.resolve().then(() => listeners.forwarded.forward("log", line)));
    this.budget = new CpuBudget(limits.sliceMs);
  }

  static async create(
    options: SandboxOptions,
    listeners: SandboxListeners,
    env: SandboxEnvironment = {},
  ): Promise<Sandbox> {
    const limits = resolveLimits(options.limits);
    try {
      checkBundleSize(options.code.length);
    } catch (error) {
      env.prepared?.dispose();
      throw new SandboxError("guest", (error as Error).message);
    }
    const { prepared } = env;
    if (prepared && (prepared.memoryBytes !== limits.memoryBytes || prepared.timeZone !== env.timeZone || env.clock)) {
      throw new Error("internal: the prepared instance does not match the sandbox's memory limit, time zone or clock");
    }
    const [dataDir, supportDir, instance] = await Promise.all([
      mkdir(options.dataDir, { recursive: true }).then(() => realpath(options.dataDir)),
      // Compared by real path, as every read is; one that does not exist yet is taken as written.
      options.supportDir === undefined
        ? undefined
        : realpath(options.supportDir).catch(() => resolve(options.supportDir!)),
      prepared ?? prepareInstance({ memoryBytes: limits.memoryBytes, timeZone: env.timeZone, clock: env.clock }),
    ]).catch((error: unknown) => {
      prepared?.dispose();
      throw error;
    });
    const { code, ...rest } = options;
    const sandbox = new Sandbox(
      options.id,
      rest,
      code,
      limits,
      listeners,
      instance,
      dataDir,
      supportDir,
      env.compiledCode,
      env.clock,
    );
    sandbox.bind(env);
    return sandbox;
  }

  /** Gives the prepared instance to this extension: its limits, its ops, its id and data folder. */
  private bind(env: SandboxEnvironment): void {
    const { context, runtime } = this.instance;
    runtime.setMemoryLimit(this.limits.memoryBytes);
    // In the current thread (no sandbox thread's board) Node's ~1 MB native stack allows less.
    runtime.setMaxStackSize(
      env.placement ? this.limits.stackBytes : Math.min(this.limits.stackBytes, IN_THREAD_STACK_BYTES),
    );
    this.placement = env.placement;
    this.slices.configure(this.limits.sliceMs, env.placement);
    const router = createRouter({
      capabilities: env.capabilities ?? (sharedCapabilities ??= createCapabilities()),
      cx: this.capabilityContext(),
      forwarded: this.listeners.forwarded,
      timers: this.timers,
      logs: this.logs,
      intl: new IntlOps({ locale: env.locale, timeZone: env.timeZone }),
      subtle: this.subtle,
      owners: this.owners,
      invokeDone: (args) => this.settle(args),
      refuseModule: (name) => this.refuseModule(name),
    });
    this.bridge.bind(router, (reply) => this.answer(reply));
    runtime.setModuleLoader((name) => ({ error: this.refuseModule(name) }));
    const outcome = this.slices.run(() => {
      const config = context.newString(JSON.stringify({ id: this.id, dataDir: this.dataDir }));
      const result = context.callFunction(this.entry.init, context.undefined, config);
      config.dispose();
      if (result.error) throw new Error(`the prelude failed: ${this.slices.describe(result.error)}`);
      result.value.dispose();
    });
    if (outcome.interrupted || outcome.escaped.length)
      throw new Error(`the prelude failed: ${outcome.escaped.join("; ")}`);
  }

  /** Evaluates the bundle, once: later calls give the first call's outcome. */
  load(): Promise<LoadResult> {
    if (this.state !== "ready") return Promise.reject(this.deadError());
    this.loaded ??= this.evaluateBundle();
    return this.loaded;
  }

  /**
   * True once `load` parsed the bundle's source (no usable compiled form was given) in an
   * engine that can keep compiled code: the pool then has it compiled for its cache.
   */
  get parsedSource(): boolean {
    return this.parsed && this.instance.scripts !== undefined;
  }

  private evaluateBundle(): Promise<LoadResult> {
    return this.whenAlive(() => {
      const { context } = this.instance;
      const outcome = this.enter(() => {
        const bundle = this.bundleFunction();
        if (bundle.error) return { ok: false, error: { message: this.slices.describe(bundle.error) } };
        const result = context.callFunction(this.entry.load, context.undefined, bundle.value);
        bundle.value.dispose();
        if (result.error) return { ok: false, error: { message: this.slices.describe(result.error) } };
        return this.readJsonResult(result.value, "load");
      });
      if (!outcome) throw this.deadError();
      const reply = outcome as { ok: boolean; value?: LoadResult; error?: { message: string } };
      if (!reply.ok && reply.error?.message === "interrupted") {
        throw new SandboxError("interrupted", interruptedMessage(this.sliceMs));
      }
      if (!reply.ok) throw new SandboxError("guest", reply.error?.message ?? "the bundle failed to load");
      return reply.value as LoadResult;
    });
  }

  /**
   * The bundle as a function of its module system: run from its compiled form when one was
   * given and reads, else parsed from source. (The compiled form for the cache is made apart,
   * in a throwaway instance, so this instance's memory never holds the serializer's buffers.)
   */
  private bundleFunction(): ScriptResult {
    const { context, scripts } = this.instance;
    const given = this.compiledCode;
    const code = this.code ?? "";
    this.code = undefined;
    this.compiledCode = undefined;
    const fromCache = given && scripts?.fromBytes(given);
    if (fromCache) {
      const ran = scripts!.run(fromCache);
      fromCache.dispose();
      if (ran) return ran;
    }
    this.parsed = true;
    const result = context.evalCode(bundleScript(code), this.options.filename ?? "dist/index.js", { type: "global" });
    return result.error ? { error: result.error } : { value: result.value };
  }

  invoke(invocation: Invocation, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.state !== "ready") return Promise.reject(this.deadError());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new SandboxError("aborted", abortReason(signal)));
    return untilAborted(this.start(invocation), signal);
  }

  /** @example const { result, abort } = sandbox.start(invocation); abort("the person closed the tool"); */
  start(invocation: Invocation): StartedCall {
    if (this.state !== "ready") {
      this.usageAfterCall = undefined;
      return { result: Promise.reject(this.deadError()), abort: () => {} };
    }
    const callId = this.nextCallId++;
    const files = "files" in invocation ? invocation.files.filter((f) => typeof f === "string") : [];
    const tool = invocation.kind === "tool.run" || invocation.kind === "tool.drop";
    const result = new Promise<unknown>((resolve, reject) => this.calls.set(callId, { resolve, reject, files, tool }));
    const abort = (reason: string) => {
      if (!this.calls.has(callId)) return;
      this.failCall(callId, new SandboxError("aborted", reason));
      this.deliver("abort", { callId });
    };
    const { context } = this.instance;
    this.owners.begin(callId);
    const enterInvoke = () => {
      if (!this.calls.has(callId)) return; // aborted while it waited
      let failure: string | undefined;
      // The owner spans the whole slice, promise jobs included (they run after the entry returns).
      this.owners.within(callId, () =>
        this.enter(() => {
          const json = context.newString(JSON.stringify({ callId, invocation }));
          const thrown = callLean(context, this.entry.invoke, [json]);
          json.dispose();
          if (thrown) failure = this.slices.describe(thrown);
        }),
      );
      if (failure !== undefined) this.failCall(callId, new SandboxError("guest", failure));
    };
    // Throttled (or slices already waiting): the invocation takes its turn behind them.
    if (this.queue.length || this.budget.waitMs() > 0) {
      this.queue.push(enterInvoke);
      this.flush();
    } else {
      enterInvoke();
    }
    return { result, abort };
  }

  get lastCallUsage(): SandboxUsage | undefined {
    return this.usageAfterCall;
  }

  async diagnostics(): Promise<SandboxDiagnostics> {
    return {
      ...this.usage(),
      longestSliceMs: this.slices.stats.longestSliceMs,
      interruptedSlices: this.slices.stats.interruptedSlices,
      nearLimitSlices: this.budget.offences,
      throttles: this.throttles,
      delayedTimers: this.timers.delayed,
      droppedLogLines: this.logs.dropped,
      memoryLimitHits: this.memoryLimitHits,
      denials: this.denials.map((d) => ({ ...d })),
    };
  }

  async dispose(): Promise<void> {
    if (this.state === "disposed") return;
    const wasReady = this.state === "ready";
    this.state = "disposed";
    this.release(new SandboxError("disposed", "the sandbox was disposed"));
    if (!wasReady || this.tainted) return; // a broken instance is dropped whole, never freed piecemeal
    try {
      for (const handle of Object.values(this.entry)) handle.dispose();
      this.instance.context.dispose();
      this.instance.runtime.dispose();
    } catch {
      // A QuickJS assertion at teardown (quickjs-emscripten issues 257, 269) ends only this
      // instance, which is dropped here anyway.
    }
  }

  // ---- internals -------------------------------------------------------------------------

  private whenAlive<T>(body: () => T): Promise<T> {
    if (this.state !== "ready") return Promise.reject(this.deadError());
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs one guest slice and handles its outcome; undefined when the sandbox crashed in it. */
  private enter<T>(body: () => T): T | undefined {
    let outcome;
    this.applySliceLimit();
    try {
      outcome = this.slices.run(body);
    } catch (error) {
      this.settled = [];
      this.crash(hostFailure(error));
      return undefined;
    }
    const settled = this.settled;
    this.settled = [];
    this.budget.charge(outcome.cpuMs);
    if (this.instance.memoryExhausted || outcome.escaped.some((m) => m === "out of memory")) {
      this.memoryLimitHits++;
      this.listeners.onEvent?.({ type: "memory-limit", heapUsed: this.instance.memory.buffer.byteLength });
      this.crash(`out of memory: the extension used more than its ${Math.round(this.limits.memoryBytes / 1048576)} MB`);
      return undefined;
    }
    for (const apply of settled) apply();
    if (outcome.interrupted) {
      this.listeners.onEvent?.({ type: "interrupted", sliceMs: this.sliceMs });
      for (const id of [...this.calls.keys()])
        this.failCall(id, new SandboxError("interrupted", interruptedMessage(this.sliceMs)));
    } else if (outcome.escaped.length) {
      this.hostLog("error", `uncaught: ${outcome.escaped.join("; ")}`);
    }
    if (this.queue.length) queueMicrotask(() => this.flush());
    return outcome.value;
  }

  /** Host → guest push (a timer, an abort, a WebSocket event), one slice each, in order. */
  private deliver(kind: string, data: unknown): void {
    if (this.state !== "ready") return;
    this.queue.push(() => this.dispatch(kind, data));
    this.flush();
  }

  /**
   * An answer to an async host call, in line with the pushes. Answers to `ctx.emit` carry no
   * value (null, or the owner's refusal) and arrive together (the owner answers a guest's
   * burst in one crossing): they wait for the end of this turn, so those of one invocation
   * share a slice (`reply`).
   */
  private answer(reply: Reply): void {
    if (this.state !== "ready") return;
    this.queue.push(reply);
    if (reply.op !== "emit") return this.flush();
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private dispatch(kind: string, data: unknown): void {
    const { context } = this.instance;
    this.owners.within(undefined, () =>
      this.enter(() => {
        const kindHandle = context.newString(kind);
        const json = context.newString(JSON.stringify(data ?? null));
        const thrown = callLean(context, this.entry.dispatch, [kindHandle, json]);
        kindHandle.dispose();
        json.dispose();
        if (thrown) this.hostLog("error", `uncaught in ${kind}: ${this.slices.describe(thrown)}`);
      }),
    );
  }

  /**
   * An answer to an async call, through the prelude's own entry: it runs as part of the
   * invocation whose call it answers. When it answers an emit, the answers to that invocation's
   * emits waiting right behind it come in the same slice, up to EMIT_ANSWERS_PER_SLICE: the
   * guest's continuations run once all are given, as those of emits answered ahead already run
   * in the emitting slice. Thirty guests bursting emits then use ~6 % less CPU per blip
   * (bench/README.md).
   */
  private reply(first: Reply): void {
    const owner = this.owners.ownerOf(first.id);
    const replies = [first];
    while (first.op === "emit" && replies.length < EMIT_ANSWERS_PER_SLICE) {
      const next = this.queue[0];
      if (typeof next !== "object" || next.op !== "emit" || this.owners.ownerOf(next.id) !== owner) break;
      replies.push(next);
      this.queue.shift();
    }
    const { context } = this.instance;
    this.owners.within(owner, () =>
      this.enter(() => {
        for (const { id, ok, value, error } of replies) {
          this.owners.release(id);
          const idHandle = context.newNumber(id);
          const json = context.newString(JSON.stringify(ok ? (value ?? null) : error));
          const thrown = callLean(context, this.entry.reply, [idHandle, ok ? context.true : context.false, json]);
          idHandle.dispose();
          json.dispose();
          if (thrown) this.hostLog("error", `uncaught in reply: ${this.slices.describe(thrown)}`);
        }
      }),
    );
  }

  /** Runs waiting slices in order while the CPU budget has room; else once it has. */
  private flush(): void {
    if (this.flushing || this.slices.inSlice || this.throttleTimer) return;
    this.flushing = true;
    try {
      while (this.queue.length && this.state === "ready") {
        const waitMs = this.budget.waitMs();
        if (waitMs > 0) return this.throttle(waitMs);
        const next = this.queue.shift()!;
        if (typeof next === "function") next();
        else this.reply(next);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The sandbox's `sliceMs`, or its `toolSliceMs` while a tool run is in progress (when longer). */
  private applySliceLimit(): void {
    let tool = false;
    for (const call of this.calls.values()) tool ||= call.tool;
    const sliceMs = tool ? Math.max(this.limits.sliceMs, this.limits.toolSliceMs) : this.limits.sliceMs;
    if (sliceMs !== this.sliceMs) this.slices.configure(sliceMs, this.placement);
    this.sliceMs = sliceMs;
  }

  private throttle(waitMs: number): void {
    this.throttles++;
    this.listeners.onEvent?.({
      type: "throttled",
      waitMs: Math.ceil(waitMs),
      budgetMs: this.budget.budgetMs,
      windowMs: this.budget.windowMs,
    });
    this.throttleTimer = setTimeout(() => {
      this.throttleTimer = undefined;
      this.flush();
    }, waitMs);
  }

  /** `invoke.done` from the prelude. */
  private settle(raw: unknown): void {
    const args = raw as {
      callId?: unknown;
      ok?: unknown;
      value?: unknown;
      error?: { message?: unknown; stack?: unknown };
    };
    if (typeof args !== "object" || args === null || typeof args.callId !== "number")
      throw new TypeError("invoke.done: bad arguments");
    const callId = args.callId;
    // Applied once the slice is over: if the slice ends in a crash, the crash wins.
    this.settled.push(() => {
      const call = this.calls.get(callId);
      if (!call) return;
      this.calls.delete(callId);
      this.owners.end(callId, { aborted: false });
      if (args.ok === true) {
        this.usageAfterCall = this.usage();
        call.resolve(args.value);
      } else {
        this.usageAfterCall = undefined;
        const stack = typeof args.error?.stack === "string" ? args.error.stack.slice(0, 4_000) : undefined;
        call.reject(new SandboxError("guest", String(args.error?.message ?? "the extension failed"), stack));
      }
    });
  }

  private failCall(id: number, error: Error): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    this.owners.end(id, { aborted: true });
    this.usageAfterCall = undefined;
    call.reject(error);
  }

  private readJsonResult(handle: QuickJSHandle, what: string): unknown {
    const { context } = this.instance;
    try {
      if (context.typeof(handle) !== "string") throw new Error(`${what}: the prelude returned no result`);
      return parseGuestJson(context.getString(handle), what, MAX_RESULT_JSON_CHARS);
    } finally {
      handle.dispose();
    }
  }

  private crash(reason: string): void {
    if (this.state !== "ready") return;
    this.state = "crashed";
    this.tainted = true;
    this.release(new SandboxError("crashed", `the sandbox crashed: ${reason}`));
    this.listeners.onCrash?.({ reason, guilty: true });
  }

  /** Ends every call, timer and capability of this sandbox. */
  private release(error: SandboxError): void {
    this.lifetime.abort(error);
    this.timers.clearAll();
    this.logs.dispose();
    this.subtle.clear();
    this.bridge.cancelAll();
    this.queue.length = 0;
    clearTimeout(this.throttleTimer);
    for (const id of [...this.calls.keys()]) this.failCall(id, error);
  }

  private deadError(): SandboxError {
    return this.state === "disposed"
      ? new SandboxError("disposed", "the sandbox was disposed")
      : new SandboxError("crashed", "the sandbox crashed; create it again");
  }

  private refuseModule(name: string): Error {
    const { message, suggestion } = moduleRefusal(name);
    this.recordDenial({
      kind: "module",
      target: name,
      reason: "Node modules and packages cannot be loaded in the sandbox",
      fix: suggestion,
    });
    return new Error(message);
  }

  private recordDenial(denial: Omit<Denial, "at">): Denial {
    const full = { ...denial, at: this.clock?.now() ?? Date.now() };
    this.denials.push(full);
    if (this.denials.length > MAX_DENIALS_KEPT) this.denials.shift();
    // The runtime writes each denial as a log line (32,000 a second in a loop): paced like one.
    if (this.logs.admit(full.target.length + full.reason.length + (full.fix?.length ?? 0))) {
      this.listeners.onEvent?.({ type: "denied", denial: full });
    }
    return full;
  }

  private capabilityContext(): CapabilityContext {
    return {
      id: this.id,
      permissions: this.options.permissions,
      dataDir: this.dataDir,
      ...(this.supportDir === undefined ? {} : { supportDir: this.supportDir }),
      signal: this.lifetime.signal,
      deny: (denial) => new Error(formatDenial(this.recordDenial(denial))),
      push: (kind, data) => queueMicrotask(() => this.deliver(kind, data)),
      toolFiles: () => [...this.calls.values()].flatMap((call) => call.files),
      log: (level, message) => this.hostLog(level, message),
    };
  }

  /**
   * The sandbox's own lines (uncaught errors, capability warnings): a guest can provoke them, so they are paced too.
   */
  private hostLog(level: LogLevel, message: string): void {
    this.logs.send({ level, message: cutLogMessage(message) }).catch(() => {});
  }

  /**
   * True when the heap figure is older than HEAP_FIGURE_MS or the linear memory grew since. Measuring
   * walks every object of the guest's heap: ~0.2 ms of the sandbox thread for a small extension,
   * which an `idle` status after every run paid (bench/README.md, "Session 10").
   */
  private usage(): SandboxUsage {
    if (this.state === "ready" && !this.slices.inSlice && this.heapIsStale()) this.lastHeapUsed = this.measureHeap();
    return { heapUsed: this.lastHeapUsed, cpuMs: this.slices.stats.cpuMs };
  }

  private heapIsStale(): boolean {
    return (
      performance.now() - this.heapMeasuredAt >= HEAP_FIGURE_MS ||
      this.instance.memory.buffer.byteLength !== this.heapMeasuredBytes
    );
  }

  private measureHeap(): number {
    const { context, runtime } = this.instance;
    this.heapMeasuredAt = performance.now();
    this.heapMeasuredBytes = this.instance.memory.buffer.byteLength;
    try {
      const usage = runtime.computeMemoryUsage();
      const used = context.getProp(usage, "memory_used_size");
      const bytes = context.typeof(used) === "number" ? context.getNumber(used) : 0;
      used.dispose();
      usage.dispose();
      return bytes;
    } catch {
      return this.lastHeapUsed;
    }
  }
}

/** Words for a host-side exception out of the interpreter (a trap, a Node stack overflow). */
function hostFailure(error: unknown): string {
  const { name, message } = errorRecord(error);
  if (name === "RangeError" && /call stack/i.test(message)) return "stack overflow in the interpreter";
  return `the interpreter failed: ${message}`;
}
