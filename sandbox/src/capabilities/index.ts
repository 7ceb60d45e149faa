/**
 * Host-side implementations of the fenced bridge operations (BRIDGE.md): fetch, WebSocket,
 * exec, files, storage. The sandbox core routes guest calls here; each handler receives
 * the guest's arguments as parsed JSON (untrusted: check every type and size) and the
 * sandbox it serves.
 *
 * NOTE FOR THE SANDBOX CORE (helper C), from helper D — policies and limits: ../../CAPABILITIES.md
 * - `CapabilityContext` gained one OPTIONAL member, `log(level, message)`: storage reports a
 *   corrupt file it moved aside through it (falls back to console.warn). Please wire it.
 * - Build `deny()`'s Error with `formatDenial(denial)` (exported below), so every denial reads
 *   `fetch to evil.example denied: "evil.example" is not in permissions.network (add
 *   "evil.example" to svc.permissions.network in package.json)`.
 * - `createCapabilities(options?)` takes optional `CapabilityOptions` (limits, resolver, PATH).
 * - Async handlers may throw synchronously on bad args only if you wrap them; they are all
 *   `async` functions today, so they reject instead.
 * - Ops: async `fetch`, `exec`, `files.read|write|list|exists|remove`, `storage.get|set|delete`;
 *   sync `fetch.abort`, `ws.open` (throws a denial at once; the rest arrives as pushes),
 *   `ws.send`, `ws.close`.
 * - `push(kind, data)` is used with kind `"ws"`, data `{socketId, type: "open"|"message"|
 *   "error"|"close", …}` (websocket.ts `WebSocketPush`). Deliver pushes in the order made.
 * - fetch args add `redirect` ("follow"|"manual"|"error") and `bodyEncoding` ("utf8"|"base64")
 *   to BRIDGE.md's; the result adds `bodyEncoding`. A fetch body may be 10 MB, i.e. ~14 MB of
 *   args JSON as base64: MAX_CALL_JSON_CHARS (1 MiB) must allow that for `fetch` (and ~1.4 MB
 *   for `ws.send`), or lower `fetchRequestBytes` to match.
 * - Speed: a JS loop over bytes in QuickJS costs ~2 µs/byte (1 MB of base64 → 2.4–4.8 s, over the
 *   slice). guest/fetch.ts's `GuestBridge` has OPTIONAL `bytesFromBase64`/`bytesToBase64`: give
 *   them native implementations (host decodes, `vm.newArrayBuffer`) in the bridge you pass to
 *   `install`. Text bodies already cross as strings.
 */
import type { Denial, Permissions } from "../types.js";
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
  /** Something the extension's developer should see in its log (added by helper D; optional). */
  log?(level: "debug" | "info" | "warn" | "error", message: string): void;
}

export type OpHandler = (args: unknown, cx: CapabilityContext) => unknown;

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
export type { CapabilityOptions } from "./options.js";
export { parseNetworkPolicy, type NetworkPolicy } from "./network-policy.js";
