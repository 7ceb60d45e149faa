/**
 * Host-side implementations of the fenced bridge operations (BRIDGE.md): fetch, WebSocket,
 * exec, files, storage. The sandbox core routes guest calls here; each handler receives
 * the guest's arguments as parsed JSON (untrusted: check every type and size) and the
 * sandbox it serves.
 */
import type { Denial, Permissions } from "../types.js";

export interface CapabilityContext {
  /** Extension id. */
  readonly id: string;
  readonly permissions: Permissions;
  /** Absolute, realpath'd `Data/<id>/`, existing. */
  readonly dataDir: string;
  /** Records a denial (diagnostics, svckit dev) and returns the Error to reject the guest call with. */
  deny(denial: Omit<Denial, "at">): Error;
  /** Pushes an event into the guest (`__svc_dispatch(kind, data)`), e.g. a WebSocket message. */
  push(kind: string, data: unknown): void;
  /** Aborted when the sandbox is disposed: every request, socket and child process ends with it. */
  readonly signal: AbortSignal;
  /** Absolute paths the user gave to the tool runs currently in progress (readable while they run). */
  toolFiles(): readonly string[];
}

export type OpHandler = (args: unknown, cx: CapabilityContext) => unknown;

export interface Capabilities {
  /** op name -> handler returning a Promise (the guest awaits it). */
  readonly async: Readonly<Record<string, OpHandler>>;
  /** op name -> handler returning a value at once. */
  readonly sync: Readonly<Record<string, OpHandler>>;
}

/** Placeholder until the capabilities land: no op is served. */
export function createCapabilities(): Capabilities {
  return { async: {}, sync: {} };
}
