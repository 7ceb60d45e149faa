/**
 * What every fenced op handler is given: the sandbox it serves (`CapabilityContext`) and what
 * its one call knows (`OpCall`). Apart from index.ts, which assembles the handlers, so the
 * handlers import their types from here and nothing imports in a circle.
 */
import type { Denial, LogLevel, Permissions } from "../types.js";

export interface CapabilityContext {
  /** Extension id. */
  readonly id: string;
  readonly permissions: Permissions;
  /** Absolute, realpath'd `Data/<id>/`, existing. */
  readonly dataDir: string;
  /**
   * Absolute, realpath'd svc support folder, when there is one: never readable, whatever
   * `permissions.files` lists, except `dataDir` inside it.
   */
  readonly supportDir?: string;
  /** Records a denial (diagnostics, svckit dev) and returns the Error to reject the guest call with. */
  deny(denial: Omit<Denial, "at">): Error;
  /** Pushes an event into the guest (`__svc_dispatch(kind, data)`), e.g. a WebSocket message. */
  push(kind: string, data: unknown): void;
  /** Aborted when the sandbox is disposed: every request, socket and child process ends with it. */
  readonly signal: AbortSignal;
  /** Absolute paths the user gave to the tool runs currently in progress (readable while they run). */
  toolFiles(): readonly string[];
  /** Something the extension's developer should see in its log (storage reports a corrupt file it moved aside). */
  log?(level: LogLevel, message: string): void;
}

/** What one call knows of its own: `signal` aborts when the invocation that made it ends early. */
export interface OpCall {
  readonly signal?: AbortSignal;
}

/** Throws a TypeError or RangeError naming what is wrong with an op's arguments. */
export type ArgsCheck = (args: unknown) => void;

export type OpHandler = (args: unknown, cx: CapabilityContext, call?: OpCall) => unknown;

export interface Capabilities {
  /** op name -> handler returning a Promise (the guest awaits it). */
  readonly async: Readonly<Record<string, OpHandler>>;
  /**
   * op name -> its check of the arguments, run at the call before the async handler starts: what
   * it refuses is thrown to the guest at once, with the caller's stack (some async ops have one).
   */
  readonly checks: Readonly<Record<string, ArgsCheck>>;
  /** op name -> handler returning a value at once. */
  readonly sync: Readonly<Record<string, OpHandler>>;
}
