/**
 * Starting and stopping the local HTTP server: loopback only, port with fallback, a fresh token
 * written with the port to `webhook.json`, held webhook requests released, log streams ended and
 * `webhook.json` removed at close.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import type { BlipStore } from "../store/blip-store.js";
import { newToken, removeWebhookFile, writeWebhookFile } from "../support/webhook-file.js";
import { createApp, type HttpLog } from "./app.js";
import { HeldReplies, type WebhookReply } from "./held-replies.js";
import type { HookTarget } from "./hook-route.js";
import type { SchedulerControl } from "./scheduler-routes.js";
import type { ExtensionManager } from "../manage/types.js";
import { HostEvents } from "../events/index.js";
import { LogStreams } from "./log-stream.js";
import { LOOPBACK, listenWithFallback, preferredPort } from "../support/http/index.js";
import type { GivenFiles, ToolRunner } from "../tools/index.js";

/** SPEC.md Authentication 4: the loopback address only. */

export interface HttpServerOptions {
  store: BlipStore;
  hooks: HookTarget;
  /** The host's pause and resume, served at `/v1/scheduler`; without it those routes are 404. */
  scheduler?: SchedulerControl;
  /** Default: `SVC_PORT`, else 47811; taken → a free port. `0`: any free port. */
  port?: number;
  /** Default: a new random token (32 bytes, base64url). */
  token?: string;
  /** Where to write `{port, token}` (mode 0600) once listening, e.g. `support.webhookFile`. */
  webhookFile?: string;
  /** `version` in `GET /v1/health`. Default: the host package's version. */
  version?: string;
  log?: HttpLog;
  /**
   * The host's event bus: `GET /v1/logs` follows its `log` and `status` events. Default: a bus
   * of its own (see `events`).
   */
  events?: HostEvents;
  /** Behind `/v1/extensions`; without it those routes are 404. */
  extensions?: ExtensionManager;
  /** Log stream heartbeat interval (tests shorten it). Default 10 s. */
  logHeartbeatMs?: number;
  /** Mints a one-time UI URL for `POST /v1/ui/tickets`; absent when no UI server runs. */
  uiTicketUrl?: () => string;
  /** The host's tools, served under `/v1/tools`. */
  tools?: ToolRunner;
  /** Files the person gave, registered at `POST /v1/given-files`. */
  givenFiles?: GivenFiles;
}

export interface RunningHttpServer {
  readonly port: number;
  readonly token: string;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The bus `GET /v1/logs` follows (the one given, or its own). */
  readonly events: HostEvents;
  /**
   * Completes a held `?await` request (the runtime's `webhook.respond`). False when no request
   * waits under that replyId (answered, timed out, or the client left).
   */
  respond(reply: WebhookReply): boolean;
  /**
   * Answers held requests 503, ends log streams, stops listening, closes every connection and
   * removes `webhook.json` if it is still ours. Idempotent.
   */
  close(): Promise<void>;
}

function hostVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Malformed HTTP never reaches express: answer in JSON (431 for oversized headers, else 400) and drop the socket. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === "ECONNRESET") return void socket.destroy();
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "request headers are too large"]
      : [400, "Bad Request", "malformed HTTP request"];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts the server and, when asked, writes `webhook.json`.
 *
 * @example
 * const http = await startHttpServer({ store, hooks, webhookFile: support.webhookFile, log });
 * connection.onNotification(WebhookRespond, (reply) => http.respond(reply));
 * // at quit:
 * await http.close();
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const log: HttpLog = options.log ?? ((level, message) => console.error(`[${level}] ${message}`));
  const token = options.token ?? newToken();
  const held = new HeldReplies();
  const bus = options.events ?? new HostEvents();
  const streams = new LogStreams({
    bus,
    log,
    ...(options.logHeartbeatMs === undefined ? {} : { heartbeatMs: options.logHeartbeatMs }),
  });
  let port = 0;
  const app = createApp({
    store: options.store,
    hooks: options.hooks,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    held,
    logs: streams,
    token,
    port: () => port,
    version: options.version ?? hostVersion(),
    log,
    ...(options.uiTicketUrl ? { uiTicketUrl: options.uiTicketUrl } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.givenFiles ? { givenFiles: options.givenFiles } : {}),
    ...(options.extensions ? { extensions: options.extensions } : {}),
  });
  const server: Server = createServer(app);
  server.on("clientError", answerClientError);
  const wanted = options.port ?? preferredPort();
  const listening = await listenWithFallback(server, wanted, LOOPBACK);
  port = listening.port;
  if (listening.fellBack)
    log("warn", `port ${wanted} is taken; the HTTP server listens on ${port} (written to webhook.json)`);
  if (options.webhookFile) {
    try {
      await writeWebhookFile(options.webhookFile, { port, token });
    } catch (error) {
      server.close();
      server.closeAllConnections();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    port,
    token,
    url: `http://${LOOPBACK}:${port}`,
    events: bus,
    respond: (reply) => held.respond(reply),
    close() {
      closing ??= new Promise<void>((resolve) => {
        held.failAll(503, "svc is shutting down; try again when it is back");
        streams.closeAll();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Give answers just written a moment to leave, then cut whatever is left.
        setTimeout(() => server.closeAllConnections(), 100).unref();
      }).then(() => (options.webhookFile ? removeWebhookFile(options.webhookFile, token) : undefined));
      return closing;
    },
  };
}
