/**
 * The integration kit: what most extensions that watch a service need. Triage for work items,
 * memory of what is new or under way, connection problems as blips, polite backoff, and short
 * wording for the notch. Pure functions, deterministic given `now`; the storage-backed ones
 * take `ctx.storage`. Plain JavaScript only: it runs inside the extension's sandbox.
 */
export {
  TRIAGE,
  type TriageMark,
  type TriageBook,
  type TriageState,
  triageState,
  sortSnoozed,
  sortDone,
  snoozedItem,
  doneItem,
  triaged,
  readTriage,
  applyTriage,
} from "./triage.js";
export { snoozeUntil, type SnoozeOptions } from "./snooze.js";
export { news, underWay, type UnderWay, type Identified } from "./tracking.js";
export {
  probe,
  problemOf,
  connectionBlip,
  CONNECT_ACTION,
  type Problem,
  type ProblemKind,
  type Probed,
} from "./connection.js";
export { backoff, waitForReset, type BackoffOptions, type HeaderSource } from "./backoff.js";
export { staleAfter, SECONDS_FROM_NOW_BELOW } from "../builders/stale.js";
export { memoryStorage } from "./memory-storage.js";
export { age, timeLeft, howLong, durationText, clip, names, joinLine } from "./wording.js";
