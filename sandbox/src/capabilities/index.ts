/**
 * Host-side implementations of the fenced bridge operations (BRIDGE.md): fetch, WebSocket,
 * exec, files, storage. The sandbox core routes guest calls here; each handler receives
 * the guest's arguments as parsed JSON (untrusted: check every type and size) and the
 * sandbox it serves.
 *
 * Policies and limits: ../../CAPABILITIES.md. Every denial's Error is built with
 * `formatDenial`, e.g. `fetch to evil.example denied: "evil.example" is not in
 * permissions.network (add "evil.example" to svc.permissions.network in package.json)`.
 * Ops: async `fetch`, `exec`, `files.read|write|list|exists|remove`, `storage.get|set|delete`;
 * sync `fetch.abort`, `ws.open` (a denial throws at once; the rest arrives as pushes of kind
 * `"ws"`, in the order made), `ws.send`, `ws.close`.
 */
import type { Denial, LogLevel, Permissions } from "../types.js";
import { resolveOptions, type CapabilityOptions } from "./options.js";
import { createFetchOps } from "./fetch.js";
import { createWebSocketOps } from "./websocket.js";
import { createExecOp } from "./exec.js";
import { createFileOps } from "./files.js";
import { createStorageOps } from "./storage.js";

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
  /** Something the extension's developer should see in its log (storage reports a corrupt file it moved aside). */
  log?(level: LogLevel, message: string): void;
}

/** What one call knows of its own: `signal` aborts when the invocation that made it ends early. */
export interface CallContext {
  readonly signal?: AbortSignal;
}

export type OpHandler = (args: unknown, cx: CapabilityContext, call?: CallContext) => unknown;

export interface Capabilities {
  /** op name -> handler returning a Promise (the guest awaits it). */
  readonly async: Readonly<Record<string, OpHandler>>;
  /** op name -> handler returning a value at once. */
  readonly sync: Readonly<Record<string, OpHandler>>;
}

/**
 * The fenced ops, bound to one set of options and shared by every sandbox (per-sandbox state
 * is keyed by its `CapabilityContext`).
 * @example
 * const caps = createCapabilities({ limits: { fetchResponseBytes: 1024 * 1024 } });
 * const result = await caps.async["fetch"]({ requestId: 1, url: "https://api.example.com/" }, cx);
 */
export function createCapabilities(options?: CapabilityOptions): Capabilities {
  const resolved = resolveOptions(options);
  const fetchOps = createFetchOps(resolved);
  const ws = createWebSocketOps(resolved);
  return {
    async: {
      fetch: fetchOps.fetch,
      exec: createExecOp(resolved),
      ...createFileOps(resolved),
      ...createStorageOps(resolved),
    },
    sync: {
      "fetch.abort": fetchOps.abort,
      "ws.open": ws.open,
      "ws.send": ws.send,
      "ws.close": ws.close,
    },
  };
}

export { formatDenial } from "./denial.js";
export { DEFAULT_LIMITS, type CapabilityLimits } from "./limits.js";
export type { CapabilityOptions, FetchHop, FetchTransport } from "./options.js";
export { parseNetworkPolicy, type NetworkPolicy } from "./network-policy.js";
