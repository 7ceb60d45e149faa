/**
 * What a review shows and what an approval is checked against, below both the installer and the
 * ledger: what a manifest can reach (`reachOf`, the same function the fence's checks come from),
 * the plain-words summary, the package limits and the version order.
 *
 * @example
 * const summary = summarize(manifest, places, installed, author);
 * console.log(summary.text);
 */
export { summarize, type InstallSummary, type InstalledVersion } from "./summary.js";
export { reachOf, gainedReach, grantQuestion, type GrantQuestion, type ReachItem, type ReachPlaces } from "./reach.js";
export { InstallError, PACKAGE_LIMITS } from "./limits.js";
export { isOlder } from "./version-order.js";
export { authorLine, type AuthorView } from "./author-view.js";
