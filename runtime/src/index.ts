/**
 * @svc/runtime's public face: the protocol (every method declared once, the error table), the
 * JSON-RPC connection and the NDJSON framing (svc-host imports these to speak to svc-runtime),
 * where the support folder is, and how a long-lived svc process ends (process-lifetime.ts).
 */
export * from "./protocol/index.js";
export * from "./connection.js";
export * from "./framing.js";
export * from "./support-folder.js";
export * from "./precompile.js";
export * from "./process-lifetime.js";
