/**
 * @svc/api — the svc extension SDK.
 *
 * One import for extension authors (builders, value and block helpers, the integration kit,
 * `defineExtension`, `tool`) and for svc's own pieces (the zod schemas and the processing
 * every consumer shares: payload truncation, tool spec decode/encode, value normalization,
 * tool result cutting).
 */
export * from "./schemas/index.js";
export * from "./processing/index.js";
export * from "./builders/index.js";
export * from "./kit/index.js";
export * from "./types.js";
export * from "./log-level.js";
export * from "./lifetime.js";
export * from "./display/index.js";
export * from "./icons/index.js";
