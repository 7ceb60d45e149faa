/**
 * @svc/runtime's public face: the protocol (every method declared once, the error table), the
 * JSON-RPC connection and the NDJSON framing (svc-host imports these to speak to svc-runtime),
 * where the support folder is, and the fence on the file paths a tool hands back (the host checks
 * them again with the same code).
 */
export * from "./protocol/index.js";
export * from "./connection.js";
export * from "./framing.js";
export * from "./support-folder.js";
export * from "./precompile.js";
export { ToolPathFence, fenceBlocks, fencePaths, type PathVerdict, type DroppedPath } from "./tool-paths.js";
