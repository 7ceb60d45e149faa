/** The host's clock: real time for users, a hand-moved clock for tests. */
export * from "./clock.js";
export * from "./manual-clock.js";
