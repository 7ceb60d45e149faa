/**
 * Messages between the owner thread (SandboxPool) and a sandbox thread. Plain data only: they
 * cross `postMessage`. `sid` names a sandbox (unique in the pool, also its slot on the host
 * thread's SliceBoard), `rid` a request, `fid` a forwarded host call.
 */
import type { CompiledCodeSource } from "../engine/compiled-code/code-cache.js";
import type { SandboxErrorCode } from "../errors.js";
import type { ForwardedOp, Invocation, LoadResult, SandboxEvent, SandboxOptions, SandboxUsage } from "../types.js";

export type SandboxMethod = "load" | "diagnostics" | "dispose";

export type ToSandboxThread =
  | { type: "create"; rid: number; sid: number; options: SandboxOptions; compiledCode?: CompiledCodeSource }
  /** The guests' time zone and locale from now on (checked by the pool; absent: the process's). */
  | { type: "settings"; rid: number; timeZone?: string; locale?: string }
  /** Compile for the code cache when idle: written to `file` (answer null), or the bytes answered. */
  | { type: "compile"; rid: number; id: string; code: string; filename: string; file?: string }
  | { type: "call"; rid: number; sid: number; method: SandboxMethod }
  | { type: "invoke"; rid: number; sid: number; invocation: Invocation }
  | { type: "abort"; rid: number; reason: string }
  | { type: "forwarded"; sid: number; fid: number; ok: true; value: unknown }
  | { type: "forwarded"; sid: number; fid: number; ok: false; error: { name: string; message: string } }
  | { type: "stats"; rid: number; collectGarbage?: boolean }
  /** The pool is ending: dispose every sandbox (ending their timers, requests and exec children). */
  | { type: "close"; rid: number };

export type FromSandboxThread =
  | { type: "ready" }
  | { type: "result"; rid: number; ok: true; value: unknown }
  | { type: "result"; rid: number; ok: false; error: { code: SandboxErrorCode; message: string; guestStack?: string } }
  | { type: "forward"; sid: number; fid: number; op: ForwardedOp; args: unknown }
  | { type: "event"; sid: number; event: SandboxEvent }
  | { type: "crash"; sid: number; reason: string };

/** A sandbox thread's answer to "load": the result, and whether the source was parsed (no cached form). */
export interface LoadReply {
  loaded: LoadResult;
  parsedSource: boolean;
}

/** A sandbox thread's answer to "invoke": the result, and the usage the call left (`lastCallUsage`). */
export interface InvokeReply {
  value: unknown;
  usage: SandboxUsage | undefined;
}

/** What the owner gives a sandbox thread when starting it (`workerData`). */
export interface SandboxThreadData {
  module: WebAssembly.Module;
  board: SharedArrayBuffer;
  /** Tag prefix of every program this thread's sandboxes start (capabilities/process-tags.ts). */
  execTag: string;
  /** The guests' local time zone (IANA name, checked by the pool); absent: the process's. */
  timeZone?: string;
  /** The guests' default locale (checked by the pool); absent: the process's. */
  locale?: string;
  /** Keep a spare prepared instance ready (default true). */
  spare?: boolean;
}

/** One sandbox thread's figures, for the leak test and diagnostics. */
export interface SandboxThreadStats {
  sandboxes: number;
  /** V8 heap of the sandbox thread, bytes. */
  heapUsed: number;
  /** Memory outside the V8 heap (the sandboxes' linear memories among it), bytes. */
  external: number;
  /** Handles keeping the thread's event loop busy (timers, sockets …). */
  activeResources: number;
  /** A spare prepared instance is waiting to be taken by the next create. */
  spare: boolean;
  /** Idle work waiting or running: bundles compiled for the code cache, the warm-up (done while idle). */
  compiling: number;
  /** CPU time the thread has used since it started, ms (thread-cpu.ts): what a flood costs. */
  cpuMs: number;
}
