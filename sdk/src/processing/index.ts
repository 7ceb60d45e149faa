/**
 * Processing every consumer shares (runtime, host, svckit): payload validation and truncation,
 * tool spec decode/encode, tool value normalization, tool result cutting, manifest parsing.
 */
export * from "./issues.js";
export * from "./truncate-payload.js";
export * from "./payload.js";
export * from "./tool-spec.js";
export * from "./tool-values.js";
export * from "./tool-result.js";
export * from "./manifest.js";
export * from "./catalog.js";
