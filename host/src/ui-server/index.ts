/**
 * The UI server (UI.md): a second loopback listener serving the notch page and its API, with a
 * ticket → session handshake, the live feed and the app's own settings.
 *
 * @example
 * const ui = await startUiServer({ backend });
 * ui.ticketUrl() // "http://127.0.0.1:41234/#t=…" (what POST /v1/ui/tickets answers)
 * ui.publish({ type: "notify", title: "Deployed" });
 * await ui.close();
 */
export {
  startUiServer,
  DEFAULT_PAGE_FOLDER,
  type UiBackend,
  type UiServerOptions,
  type RunningUiServer,
} from "./server.js";
export { Sessions, TICKET_TTL_MS } from "./sessions.js";
export { Feed, FEED_BACKLOG, FEED_HEARTBEAT_MS } from "./feed.js";
export { AppSettingsFile, applySettings, DEFAULT_SETTINGS } from "./app-settings.js";
export { InstallReviews, REVIEW_TIMEOUT_MS, MAX_OPEN_REVIEWS } from "./install-reviews.js";
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "./respond.js";
export type * from "./wire.js";
export { runUiCommand, UI_USAGE, type UiCommandIo } from "./ui-command.js";
