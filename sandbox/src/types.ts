/**
 * The sandbox's contract with its callers (the runtime, svckit) and with the Node side of the
 * bridge. Everything here is plain data that survives structured clone, because sandboxes live
 * on sandbox threads apart from the protocol thread.
 */
import type { ForwardedOp } from "./bridge/op-table.js";
import type { Invocation } from "./invocation.js";

/** Hard limits of one sandbox. Every one of them comes from the interpreter or its linear memory. */
export interface SandboxLimits {
  /**
   * Heap cap in bytes: QuickJS's memory limit, and the maximum of the instance's own WebAssembly.Memory. Default 64 MB.
   */
  memoryBytes: number;
  /** QuickJS max stack size in bytes. Default 1 MB (~6,500 frames): deep recursion is a clean guest error. */
  stackBytes: number;
  /** Longest synchronous slice of guest code before it is interrupted, in ms. Default 1000. */
  sliceMs: number;
  /**
   * The slice while a tool run is in progress, when longer than `sliceMs`, in ms. Default
   * TOOL_SLICE_MS (15 s); tests set less, so proving the limit costs less CPU than 15 s.
   */
  toolSliceMs: number;
}

/**
 * Where a sandbox's time comes from: the guest's `Date`, `performance.now()` and timers. Default:
 * the real clock. `@svc/testkit` gives a manual one, so a test moves time instead of waiting.
 */
export interface SandboxClock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The manifest's `permissions` object, as declared. */
export interface Permissions {
  network: string[];
  files: string[];
  exec: string[];
  /** Lets `exec` run programs that run other programs (sh, env, find …); default false. */
  runAnyCommand?: boolean;
  /**
   * Origins (`https://host:port`) the person granted through a `url` option. Given by the host
   * from its permission ledger, never read from the manifest: each admits exactly its scheme,
   * host and port.
   */
  grantedOrigins?: string[];
}

/** Everything needed to create one extension's sandbox. Plain data. */
export interface SandboxOptions {
  /** The extension id (reverse-DNS). Stamped on everything the sandbox reports. */
  id: string;
  /** The bundled CommonJS code (`dist/index.js`). */
  code: string;
  /** File name shown in guest stack traces. Default `dist/index.js`. */
  filename?: string;
  permissions: Permissions;
  /** The extension's own data folder, `Data/<id>/`; created when missing. */
  dataDir: string;
  /**
   * svc's support folder (the one holding `Data/`). The file fence refuses every read inside it
   * except `dataDir`, whatever `permissions.files` lists. svc-runtime always gives it.
   */
  supportDir?: string;
  limits?: Partial<SandboxLimits>;
}

/** What the sandbox learned by evaluating the bundle. */
export interface LoadResult {
  /** Tool name -> the raw spec object the bundle exported (JSON-copied, not yet validated). */
  tools: Record<string, unknown>;
  hasUpdate: boolean;
  hasOnEvent: boolean;
  hasOnAction: boolean;
}

export type { CallContext, Invocation } from "./invocation.js";

/**
 * Calls the guest makes that the sandbox forwards rather than serves itself, and the levels of a
 * log line: both from the one table of bridge ops (bridge/op-table.ts).
 */
export type { BridgeOp, ForwardedArgs, ForwardedOp, LogLevel, OpArgs, OpResult } from "./bridge/op-table.js";

/**
 * The runtime implements them (validation, seq, JSON-RPC to the host). `args` has been copied
 * out of the guest as plain JSON and checked for basic shape and size; the runtime validates the
 * rest.
 */
export interface ForwardedCalls {
  forward(op: ForwardedOp, args: unknown): Promise<unknown>;
}

/** One thing the fence refused, with the manifest change that would allow it. */
export interface Denial {
  kind: "fetch" | "websocket" | "exec" | "file" | "module";
  /** What was asked for: a URL, an executable, a path, a module name. */
  target: string;
  /** Why, for a person: `api.example.com is not in permissions.network`. */
  reason: string;
  /** The fix, when there is one: `add "api.example.com" to svc.permissions.network`. */
  fix?: string;
  at: number;
}

/** Something a person debugging the extension wants to see as it happens (svckit dev). */
export type SandboxEvent =
  | { type: "denied"; denial: Denial }
  | { type: "interrupted"; sliceMs: number }
  | { type: "memory-limit"; heapUsed: number }
  /** Past its CPU budget (cpu-budget.ts): its next slice waits `waitMs`. Sent when throttling begins. */
  | { type: "throttled"; waitMs: number; budgetMs: number; windowMs: number };

/** The two figures `extension.status` carries. */
export interface SandboxUsage {
  /** Bytes in use on the QuickJS heap, measured at most HEAP_FIGURE_MS ago (sooner when its memory grew). */
  heapUsed: number;
  /** Milliseconds of guest code run, all slices summed. */
  cpuMs: number;
}

export interface SandboxDiagnostics extends SandboxUsage {
  longestSliceMs: number;
  interruptedSlices: number;
  /** Slices that used 75 % of the slice limit or more (cpu-budget.ts). */
  nearLimitSlices: number;
  /** Times the sandbox was throttled for going past its CPU budget. */
  throttles: number;
  /** Timer firings that waited because the sandbox was past its firing budget (timer-ops.ts). */
  delayedTimers: number;
  /** Log lines dropped because the sandbox was past its log budget (log-gate.ts). */
  droppedLogLines: number;
  memoryLimitHits: number;
  /** The most recent denials, newest last (bounded). */
  denials: Denial[];
}

/** Why a sandbox stopped on its own: the runtime marks the extension `crashed`. */
export interface SandboxCrash {
  /** `out of memory`, `interrupted: slice over 1000 ms inside a native call`, a trap's message … */
  reason: string;
  /** True when this sandbox caused it; false when it was a neighbour on a sandbox thread that had to be replaced. */
  guilty: boolean;
}

/** Callbacks the owner of a sandbox gives when creating it. Called on the owner's thread. */
export interface SandboxListeners {
  forwarded: ForwardedCalls;
  onEvent?(event: SandboxEvent): void;
  /** The sandbox is gone (trap, out of memory, stuck native call, or a neighbour's): create it again to continue. */
  onCrash?(crash: SandboxCrash): void;
}

/** A call under way. `abort` fails it with an `aborted` SandboxError and tells the guest (`ctx.signal`). */
export interface StartedCall {
  result: Promise<unknown>;
  abort(reason: string): void;
}

/**
 * One extension's sandbox as its owner sees it: every method is async because the interpreter
 * runs on a sandbox thread. `load` evaluates the bundle once; `invoke` calls an entry point and
 * resolves with its JSON-copied result (rejects with the guest's error message on a throw).
 */
export interface SandboxHandle {
  readonly id: string;
  load(): Promise<LoadResult>;
  invoke(invocation: Invocation, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** `invoke` without an AbortSignal (Node's costs ~10 µs a call): the call's own abort instead. */
  start(invocation: Invocation): StartedCall;
  /**
   * The usage as the latest invocation to end left it, if that one succeeded (else undefined: ask
   * `diagnostics()`). Free to read: the invocation's answer carried it, so the `idle` status after
   * a call needs no round trip to the sandbox thread.
   */
  readonly lastCallUsage: SandboxUsage | undefined;
  diagnostics(): Promise<SandboxDiagnostics>;
  /** Idempotent. Frees the instance, its timers, sockets, child processes and pending calls. */
  dispose(): Promise<void>;
}
