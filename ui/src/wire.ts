/**
 * The feed's events and the API's shapes: defined once, in the host's UI server, and imported
 * here as types only (nothing of the host reaches the bundle).
 */
export type * from "../../host/src/ui-server/wire.js";
