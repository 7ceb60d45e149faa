/**
 * The author's toolkit for output: blip builders (one per layout), value helpers (typed
 * values), block builders (tool results), and the `defineExtension` / `tool` declarations.
 */
export { stat, progress, session, list, score, countdown, meter } from "./blips.js";
export type { BlipOptions, MeterInput } from "./blips.js";
export { currency, number, percent, duration, date, text } from "./values.js";
export { status, code, table, files, image, color } from "./blocks.js";
export { defineExtension, tool } from "./define.js";
export { type DateInput, MILLISECONDS_FROM, toEpochMs, toIsoString } from "./instant.js";
