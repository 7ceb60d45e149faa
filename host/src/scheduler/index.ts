/** Scheduling of extension runs: interval with tolerance, nextRunAfter, webhook cut-back, pause. */
export * from "./rules.js";
export * from "./wake-up.js";
export * from "./scheduler.js";
