/**
 * The levels of a log line, defined once: `ctx.log` and `console.*` in a guest, the protocol's
 * `log` notification, and every log svc-host and svckit write.
 */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];
