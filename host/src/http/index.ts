/**
 * The local HTTP server (SPEC.md "Local HTTP server", "Authentication"; DESIGN.md HTTP table).
 *
 * @example
 * const http = await startHttpServer({ store, hooks, webhookFile: support.webhookFile, log });
 * // runtime's webhook.respond → http.respond({ replyId, status, body })
 * await http.close();
 */
export { startHttpServer, type HttpServerOptions, type RunningHttpServer } from "./server.js";
export { MAX_AWAIT_SECONDS, type HookDelivery, type HookTarget } from "./hook-route.js";
export type { WebhookReply } from "./held-replies.js";
export type { HttpLog } from "./app.js";
export { HEARTBEAT_MS, MAX_UNREAD_BYTES } from "./log-stream.js";
// Shared with ui-server/ and declared in support/http/; named here too for the server's callers.
export {
  BODY_LIMIT_BYTES,
  DEFAULT_PORT,
  preferredPort,
  writeWithBackpressure,
  type SlowClientWriter,
} from "../support/http/index.js";
export type { SchedulerControl } from "./scheduler-routes.js";
