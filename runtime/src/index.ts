/**
 * @svc/runtime's public face: the protocol (every method declared once, the error table), the
 * JSON-RPC connection and the NDJSON framing (svc-host imports these to speak to svc-runtime), and
 * where the support folder is.
 */
export * from "./protocol/index.js";
export * from "./connection.js";
export * from "./framing.js";
export * from "./support-folder.js";
export * from "./precompile.js";
export * from "./stack-map.js";
