/**
 * Processing every consumer shares (runtime, host, svckit): payload validation and truncation,
 * tool spec decode/encode, tool value normalization, tool result cutting, manifest parsing.
 */
export * from "./issues.js";
export * from "./truncate-payload.js";
export * from "./payload.js";
