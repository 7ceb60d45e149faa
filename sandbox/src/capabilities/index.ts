/**
 * Node-side implementations of the fenced bridge operations (BRIDGE.md): fetch, WebSocket,
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
import type { Capabilities } from "./context.js";
import { resolveOptions, type CapabilityOptions } from "./options.js";
import { createFetchOps } from "./fetch.js";
import { createWebSocketOps } from "./websocket.js";
import { createExecOp } from "./exec.js";
import { createFileOps } from "./files.js";
import { createStorageChecks, createStorageOps } from "./storage.js";

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
    checks: createStorageChecks(resolved),
    sync: {
      "fetch.abort": fetchOps.abort,
      "ws.open": ws.open,
      "ws.send": ws.send,
      "ws.close": ws.close,
    },
  };
}

export type { Capabilities, CapabilityContext, OpCall, OpHandler } from "./context.js";
export { formatDenial } from "./denial.js";
export { DEFAULT_LIMITS, type CapabilityLimits } from "./limits.js";
export type { CapabilityOptions, FetchHop, FetchTransport } from "./options.js";
export * from "./http-recording.js";
export { replayTransport } from "./replay-switch.js";
export { parseNetworkPolicy, type NetworkPolicy } from "./network-policy.js";
