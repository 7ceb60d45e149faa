/**
 * Default limits of one sandbox and the arithmetic that turns them into WebAssembly memory pages.
 * Every number here is documented in sandbox/README.md; change both together.
 */
import type { SandboxLimits } from "./types.js";

const MiB = 1024 * 1024;
const KiB = 1024;
const WASM_PAGE = 64 * KiB;

/** Limits used for every field a caller leaves out. */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 64 * MiB,
  stackBytes: 1 * MiB,
  sliceMs: 1000,
  toolSliceMs: 15_000,
});

/**
 * QuickJS stack, at most: 1 MiB is ~6,500 frames of plain recursion (Node: ~11,000; it was
 * 256 KiB, ~1,600). QuickJS counts only its own stack in linear memory, while each level of
 * recursion is also WebAssembly frames on the sandbox thread's native stack, so the sandbox threads
 * run with 32 MB of it (SANDBOX_THREAD_STACK_MB, reserved, touched only as used): 32 native bytes
 * per QuickJS byte keeps every deep recursion a guest RangeError, never a Node stack overflow.
 * Measured: 16:1 overflows now and then on source nested 100,000 deep (the parser is the
 * hungriest), 8:1 on deep JSON; 32:1 held on every case of stack.test.ts.
 */
export const MAX_STACK_BYTES = 1 * MiB;
/** The sandbox threads' native stack (Worker `resourceLimits.stackSizeMb`); see MAX_STACK_BYTES. */
export const SANDBOX_THREAD_STACK_MB = 32;
/**
 * The sandbox threads' young generation (Worker `resourceLimits.maxYoungGenerationSizeMb`): V8's
 * own default on 64-bit (16 MB semi-spaces, ×3), pinned so a smaller one set for the process
 * (`--max-semi-space-size` in NODE_OPTIONS) is not theirs: with a small young generation a
 * disposed instance's WebAssembly memory waits for a full collection to be freed.
 */
export const SANDBOX_THREAD_YOUNG_MB = 48;
/**
 * The QuickJS stack of a sandbox run in the current thread (`Sandbox`, svckit's one-shot loads)
 * at most, as before sandbox threads had more: Node's main thread has ~1 MB of native stack.
 */
export const IN_THREAD_STACK_BYTES = 256 * KiB;

/** Longest JSON string one guest→Node call may carry (`__svc_call` / `__svc_callSync` arguments). */
export const MAX_CALL_JSON_CHARS = 1 * MiB;
/** Longest base64 text the guest may decode natively (the `fetch` / `files.write` argument cap). */
export const MAX_CODEC_BASE64_CHARS = 15 * MiB;
/** Most bytes the guest may encode natively: their base64 is exactly MAX_CODEC_BASE64_CHARS long. */
export const MAX_CODEC_BYTES = (MAX_CODEC_BASE64_CHARS / 4) * 3;
/** Longest JSON string an invocation result may carry (the runtime applies SPEC's 1 MB tool rule itself). */
export const MAX_RESULT_JSON_CHARS = 4 * MiB;
/**
 * Longest bundle a sandbox takes, in characters (svc-runtime checks the file's bytes against it
 * before reading). QuickJS parses 2–4 MB/s here, so a bigger bundle could not load within a
 * slice anyway; the cap refuses it before it costs memory and a parse.
 */
export const MAX_BUNDLE_CHARS = 5 * MiB;
/**
 * Longest JSON text of `ctx.emit`'s arguments: checked on the sandbox thread before the text leaves
 * the guest, so an oversized blip never reaches the protocol thread, where validating a 1 MB
 * one took a second (a blip is at most 4 KB once processed; this leaves room for lists the
 * runtime cuts).
 */
export const MAX_EMIT_JSON_CHARS = 64 * KiB;
/** `ctx.emit`s the sandbox thread answers before the owner has (op-router.ts); past that, emits wait. */
export const MAX_EMITS_AHEAD = 16;
/** Answers to one invocation's `ctx.emit`s, waiting together, that one guest slice delivers (sandbox.ts). */
export const EMIT_ANSWERS_PER_SLICE = 16;
/** Deepest nesting of arrays/objects accepted in a guest→Node JSON string. */
export const MAX_JSON_DEPTH = 64;
/** Host calls (forwarded ops, capability ops, timers) one sandbox may have in flight at once. */
export const MAX_CALLS_IN_FLIGHT = 1000;
/**
 * JSON characters of async calls one sandbox may have in flight at once (what it can make the
 * host hold); a single call may always go, up to its own size limit.
 */
export const MAX_CHARS_IN_FLIGHT = 16 * 1024 * 1024;
/** Timers one sandbox may have pending at once. */
export const MAX_TIMERS = 1000;
/**
 * Timer firings per second per sandbox, after a burst of TIMER_FIRINGS_BURST (timer-ops.ts):
 * a due timer past that fires late, never dropped. Each firing costs the sandbox thread ~30 µs of
 * its own, so this caps a timer flood at a few % of a core; a single `setTimeout(f, 0)` chain
 * (1 ms apart in Node) never waits.
 */
export const TIMER_FIRINGS_PER_SECOND = 1000;
/** Firings that may happen at once (as many as timers may be pending). */
export const TIMER_FIRINGS_BURST = MAX_TIMERS;
/** Longest console/log message forwarded, in characters; longer ones are cut. */
export const MAX_LOG_CHARS = 8 * KiB;
/**
 * Log lines per sandbox are paced by characters (log-gate.ts): LOG_CHARS_PER_SECOND after a
 * burst of LOG_BURST_CHARS, each line costing its text plus LOG_LINE_COST_CHARS (its envelope on
 * the way to the host is about that long, so empty lines are not free). Past that, lines are
 * dropped on the sandbox thread, before they reach the protocol thread, and one warning a second
 * says how many. A flood used to send 21–25 MB/s to the host.
 */
export const LOG_CHARS_PER_SECOND = 64 * KiB;
export const LOG_BURST_CHARS = 256 * KiB;
export const LOG_LINE_COST_CHARS = 100;
/** How long after the first dropped line the warning saying how many were dropped is sent. */
export const LOG_DROP_NOTICE_MS = 1000;
/**
 * The slice while a tool run (`tool.run`, `tool.drop`) of the sandbox is in progress, when
 * longer than its `sliceMs`. A person asked for the run and waits for it (30 s at most): a
 * tool rendering a 100 KB Markdown or YAML file takes seconds in the interpreter, and ending it
 * at 1 s would only fail it. The cost: other sandboxes on the same sandbox thread wait that long.
 */
export const TOOL_SLICE_MS = DEFAULT_LIMITS.toolSliceMs;
/** The watchdog ends a sandbox thread whose guest slice runs this long past its `sliceMs`. */
export const WATCHDOG_MARGIN_MS = 250;
/** Denials kept per sandbox for diagnostics, newest last. */
export const MAX_DENIALS_KEPT = 50;

/**
 * Linear memory the QuickJS build needs besides the JS heap: static data (~100 KB) and the
 * 5 MB C stack the build reserves below the heap, plus slack for the allocator's own
 * bookkeeping and fragmentation. The WebAssembly.Memory maximum is `memoryBytes` plus this.
 */
export const MEMORY_HEADROOM_BYTES = 8 * MiB;
/** The build's memory import declares a 256-page (16 MB) minimum: no instance can start smaller. */
const MIN_PAGES = 256;
/** wasm32 ceiling for this build (its import declares 32768 pages, 2 GB). */
const MAX_PAGES = 32768;

/**
 * Fills in defaults and checks the given limits.
 *
 * @example resolveLimits({ sliceMs: 200 }) // { memoryBytes: 67108864, stackBytes: 1048576, sliceMs: 200, toolSliceMs: 15000 }
 */
export function resolveLimits(partial: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits = { ...DEFAULT_LIMITS, ...stripUndefined(partial) };
  check("memoryBytes", limits.memoryBytes, 1 * MiB, 1024 * MiB);
  check("stackBytes", limits.stackBytes, 16 * KiB, MAX_STACK_BYTES);
  check("sliceMs", limits.sliceMs, 10, 60_000);
  check("toolSliceMs", limits.toolSliceMs, 10, 60_000);
  return limits;
}

/**
 * Pages of the instance's own WebAssembly.Memory: the build's minimum to start with, and a
 * maximum that is the hard cap on everything the guest can allocate.
 *
 * @example memoryPages(DEFAULT_LIMITS) // { initial: 256, maximum: 1152 }
 */
export function memoryPages(limits: SandboxLimits): { initial: number; maximum: number } {
  const wanted = Math.ceil((limits.memoryBytes + MEMORY_HEADROOM_BYTES) / WASM_PAGE);
  return { initial: MIN_PAGES, maximum: Math.min(MAX_PAGES, Math.max(MIN_PAGES, wanted)) };
}

/**
 * Refuses a bundle longer than MAX_BUNDLE_CHARS (characters of source, or bytes of its file),
 * saying by how much.
 *
 * @example checkBundleSize(code.length) // throws RangeError "the bundle is 6.2 MB, over the limit of 5 MB …"
 */
export function checkBundleSize(length: number): void {
  if (length <= MAX_BUNDLE_CHARS) return;
  const mb = (n: number) => `${(n / MiB).toFixed(1).replace(/\.0$/, "")} MB`;
  throw new RangeError(
    `the bundle is ${mb(length)}, over the limit of ${mb(MAX_BUNDLE_CHARS)}: leave out unused dependencies or load data at run time`,
  );
}

function check(name: keyof SandboxLimits, value: number, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`limits.${name} must be a number from ${min} to ${max}, got ${String(value)}`);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
