/**
 * The express app: guards for every request, the four routes of SPEC.md "Local HTTP server"
 * plus our log stream (`GET /v1/logs`) and the token proof (`GET /v1/proof`, the one route
 * without the token), 404 for anything else, and one error handler so a
 * malformed request gets a JSON answer and never reaches the process.
 */
import express from "express";
import type { Express, NextFunction, Request, Response } from "express";
import type { BlipStore } from "../store/blip-store.js";
import { blipIdRoutes, pushBlips } from "./blip-routes.js";
import type { ExtensionManager } from "../manage/types.js";
import { extensionRoutes, EXTENSIONS_MOUNT } from "./extension-routes.js";
import { proveToken, refuseOptions, refuseOrigin, requireBearer, requireLoopbackHost } from "./guards.js";
import type { HeldReplies } from "./held-replies.js";
import { hookRoute, type HookTarget } from "./hook-route.js";
import { HttpError, sendError, TOO_LARGE } from "../support/http/index.js";
import type { LogStreams } from "./log-stream.js";
import { schedulerRoutes, SCHEDULER_MOUNT, type SchedulerControl } from "./scheduler-routes.js";
import type { AppLogLevel } from "../display/index.js";
import type { GivenFiles, ToolRunner } from "../tools/index.js";
import { givenFileRoutes, toolRoutes, TOOLS_MOUNT, GIVEN_FILES_MOUNT } from "./tool-routes.js";
import { bodyReader, serve } from "./serve.js";

export type HttpLog = (level: AppLogLevel, message: string) => void;

export interface AppDeps {
  store: BlipStore;
  hooks: HookTarget;
  /** Pause and resume (`/v1/scheduler`); absent on a server without a scheduler. */
  scheduler?: SchedulerControl;
  held: HeldReplies;
  logs: LogStreams;
  token: string;
  /** The port we listen on, read per request (known only after listen). */
  port: () => number;
  version: string;
  log: HttpLog;
  /** Mints a one-time UI URL (`POST /v1/ui/tickets`); absent when no UI server runs. */
  uiTicketUrl?: () => string;
  /** The host's tools, for `/v1/tools` (host/README.md "Tools"); absent: no tool routes. */
  tools?: ToolRunner;
  /** Behind `/v1/extensions` (list, enable, disable, uninstall, options, run). */
  extensions?: ExtensionManager;
  /** Files the person gave (`POST /v1/given-files`, the desktop shell's drops); absent: no such route. */
  givenFiles?: GivenFiles;
}

/** Turns anything thrown into `{"error": …}` with the right status; never rethrows. */
function errorHandler(log: HttpLog) {
  return function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
    if (error instanceof HttpError) return sendError(res, error.status, error.message, error.headers);
    const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
    if (type === "entity.too.large") return sendError(res, 413, TOO_LARGE);
    if (type === "encoding.unsupported")
      return sendError(res, 415, "compressed bodies are not supported: send plain UTF-8 JSON");
    if (typeof status === "number" && status >= 400 && status < 500)
      return sendError(res, status, `bad request: ${(error as Error).message}`);
    log("error", `HTTP ${req.method} ${req.path} failed: ${(error as Error)?.stack ?? String(error)}`);
    sendError(res, 500, "internal error; details are in the svc log");
  };
}

/**
 * @example
 * const app = createApp({ store, hooks, held, logs: new LogStreams({ hub, log }), token, port: () => 47811, version: "0.1.0", log });
 * http.createServer(app).listen(47811, "127.0.0.1");
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", false);

  app.use(refuseOptions);
  app.use(requireLoopbackHost(deps.port));
  app.use(refuseOrigin);
  // Before the token is asked for: a client proves it reached svc before it sends the token.
  serve(app, "", "proof", proveToken(deps.token));
  app.use(requireBearer(deps.token));

  serve(app, "", "health", (_req, res) => void res.status(200).json({ ok: true, version: deps.version }));
  serve(
    app,
    "",
    "pushBlips",
    pushBlips(deps.store, (id) => deps.hooks.status(id) !== "unknown", deps.log),
  );
  serve(app, "", "logs", deps.logs.route);
  serve(app, "", "hook", hookRoute(deps.hooks, deps.held, deps.log));
  serve(app, "", "uiTicket", (_req, res) => {
    if (!deps.uiTicketUrl) throw new HttpError(503, "the UI server is not running in this svc");
    res.status(200).set("Cache-Control", "no-store").json({ url: deps.uiTicketUrl() });
  });
  if (deps.extensions) app.use(EXTENSIONS_MOUNT, extensionRoutes(deps.extensions));
  const readEndBody = bodyReader("endBlip");
  app.use("/v1/blips", (req, res, next) =>
    req.method === "POST" && readEndBody ? readEndBody(req, res, next) : next(),
  );
  app.use("/v1/blips", blipIdRoutes(deps.store));
  if (deps.scheduler) app.use(SCHEDULER_MOUNT, schedulerRoutes(deps.scheduler));
  if (deps.tools) app.use(TOOLS_MOUNT, toolRoutes(deps.tools));
  if (deps.givenFiles) app.use(GIVEN_FILES_MOUNT, givenFileRoutes(deps.givenFiles));

  app.use((req: Request) => {
    throw new HttpError(
      404,
      `no route ${req.method} ${req.path.slice(0, 200)}: see GET /v1/health, POST /v1/blips, POST /v1/hooks/<extension-id>, GET /v1/logs, GET /v1/extensions, GET /v1/tools`,
    );
  });
  app.use(errorHandler(deps.log));
  return app;
}
