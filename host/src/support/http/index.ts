/**
 * What both HTTP faces share (the `/v1` server in `http/`, the page's server in `ui-server/`):
 * the loopback address and port choice, the JSON body rule, error answers, and writing to a
 * client that reads slowly.
 *
 * @example
 * const { port } = await listenWithFallback(server, preferredPort(), LOOPBACK);
 */
export { LOOPBACK, DEFAULT_PORT, preferredPort, listenWithFallback } from "./port.js";
export { BODY_LIMIT_BYTES, TOO_LARGE, parseJsonBody, jsonBody } from "./json-body.js";
export { HttpError, sendError } from "./http-error.js";
export { writeWithBackpressure, type SlowClientWriter } from "./slow-client.js";
