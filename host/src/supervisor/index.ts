/** Runtime supervision: the svc-runtime child, restarts with backoff, the host's answers to `host.*`. */
export * from "./runtime-process.js";
export * from "./backoff.js";
export * from "./supervisor.js";
export * from "./host-requests.js";
