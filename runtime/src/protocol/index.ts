/**
 * The svc runtime protocol: every method of SPEC.md declared once, with its params and result,
 * and the one table of error codes. svc-runtime and svc-host both import this module.
 */
export * from "./define.js";
export * from "./errors.js";
export * from "./common.js";
export * from "./host-to-runtime.js";
export * from "./runtime-to-host.js";
export * from "./host-calls.js";
export * from "./denial-line.js";
