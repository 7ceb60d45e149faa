/**
 * The UI server: a second loopback listener in the host, serving the page (`ui/dist`) and its
 * API. Every request passes the guards in order (guards.ts); the API needs a session; GETs
 * change nothing. Routes:
 *
 * | route | what |
 * |---|---|
 * | `GET /`, `GET /<file>` | the page (index.html, app.js, app.css) |
 * | `POST /api/session` `{ticket}` | `{token}`: the ticket from the URL fragment, traded once |
 * | `GET /api/events` | the live feed (Server-Sent Events; feed.ts) |
 * | `POST /api/actions` `{blipId, actionId, input?, itemId?}` | `{ok, emitted}` once the extension answered |
 * | `POST /api/preferences` `{extensionId, name, value}` | `{ok}` once saved (the extension then runs) |
 * | `POST /api/settings` `{…AppSettings}` | `{ok, settings}` once stored |
 * | `POST /api/run` `{extensionId}` | `{ok}`: a manual run |
 * | `POST /api/extensions` `{extensionId, action}` | `{ok}`: `enable`, `disable` or `uninstall` done |
 * | `POST /api/signins` `{extensionId, provider, action, connection?}` | `{ok}`: connect (the sign-in page opens) or disconnect |
 * | `GET /api/catalog` | `{packages, problems}`: the catalog (host/src/catalog), each package with what it can reach |
 * | `POST /api/install/review` `{path}`, `{handle}`, `{address}` or `{catalog}` | `{ok, reviewId, summary}`: what a `.svc` (an https address is fetched first; a catalog name is the catalog's package) is and can reach |
 * | `POST /api/install/decide` `{reviewId, accept}` | `{ok, installed, id}` once installed (or dropped) |
 * | `POST /api/extensions/review` `{extensionId, staged?}` | `{ok, reviewId, summary}`: accepting an installed extension changed on disk, or (`staged: true`) its staged update, reviewed as an update; `install/decide` answers it |
 * | `POST /api/extensions/update` `{extensionId}` | `{ok, outcome, message}`: "check for updates" at the address it was installed from (`updated`, `staged`, `up-to-date`); a refusal is a 400 with the installer's words |
 * | `GET /api/tools` | `{tools}`: every tool (host/src/tools) |
 * | `POST /api/tools/run` `{tool, action?, values?}` | `{ok, blocks}`; a failure answers the `/v1` route's status |
 * | `POST /api/tools/cancel` `{tool, runId}` | `{ok, cancelled}`: aborts that run's `ctx.signal` |
 * | `POST /api/tools/drop` `{tool, action, handles}` | `{ok, message, outputs, copiedText?}` |
 * | `POST /api/tools/agents` `{tool, enabled}` | `{ok, id, agents}`: the switch for AI agents |
 * | `POST /api/agent-files` `{id, allow}` | `{ok}`: the person's answer to an agent's file request; 404 once it is over |
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { uiAddress } from "@svc/runtime";
import { LOOPBACK, listenWithFallback } from "../support/http/index.js";
import { Feed } from "./feed.js";
import { checkFetchSite, checkHost, checkMethod, checkOrigin, checkSession, type Refusal } from "./guards.js";
import { readJson, SECURITY_HEADERS, sendJson, stringField, UiHttpError } from "./respond.js";
import { Sessions } from "./sessions.js";
import { readStaticFiles } from "./static-files.js";
import type { AppSettings, Snapshot, UiCatalog, UiEvent } from "./wire.js";
import { ToolError, type GivenFiles, type PageTools } from "../tools/index.js";
import { GrantNeededError } from "../preferences/index.js";

/** What the UI server needs from the host. */
export interface UiBackend {
  snapshot(): Snapshot;
  action(press: { blipId: string; actionId: string; input?: string; itemId?: string }): Promise<Record<string, number>>;
  /** `allowed`: for a `url` option, the origin the person allowed (else a `GrantNeededError` asks). */
  setPreference(extensionId: string, name: string, value: unknown, allowed?: string): Promise<void>;
  saveSettings(settings: unknown): Promise<AppSettings>;
  runNow(extensionId: string): boolean;
  /** Enable, disable or uninstall: rejects with a message for a person when not allowed. */
  manage(extensionId: string, action: "enable" | "disable" | "uninstall"): Promise<void>;
  signIn(request: {
    extensionId: string;
    provider: string;
    action: "connect" | "disconnect";
    connection?: string;
  }): Promise<void>;
  /** The summary of a `.svc` at a path the person gave; the install waits for `decideInstall`. */
  reviewInstall(path: string): Promise<{ reviewId: string; summary: unknown }>;
  /** The same for an https address the person gave: fetched with the terminal's limits, remembered once installed. */
  reviewAddress(address: string): Promise<{ reviewId: string; summary: unknown }>;
  decideInstall(reviewId: string, accept: boolean): Promise<{ installed: boolean; id: string }>;
  /**
   * The update review of an installed extension as it is on disk now, or of its staged update
   * (`staged`); `decideInstall` records it.
   */
  reviewAccept(extensionId: string, staged?: boolean): Promise<{ reviewId: string; summary: unknown }>;
  /** "Check for updates": fetches the address it was installed from; rejects with the installer's words. */
  checkUpdate(extensionId: string): Promise<{ outcome: string; message: string }>;
  /** Settings → Add extensions: the catalog packages with what each can reach. */
  catalog(): Promise<UiCatalog>;
  /** The `.svc` of catalog package `name` (checked against the catalog's digest); rejects with why not. */
  catalogPackage(name: string): Promise<string>;
  /** The tools tray's list and runs; absent: the page shows no tools. */
  readonly tools?: PageTools;
  /** Answers an agent's file request (host/src/tools/agent-files.ts); false when it is over. */
  answerAgentFiles?(id: string, allow: boolean): boolean;
  /** Files the person dropped or picked in the desktop shell, by handle; absent: handles are refused. */
  readonly givenFiles?: GivenFiles;
}

export interface UiServerOptions {
  backend: UiBackend;
  /** Default `SVC_UI_PORT`, else any free port. */
  port?: number;
  /** Default: this repository's `ui/dist`. */
  pageFolder?: string;
  heartbeatMs?: number;
  log?: (level: "warn" | "error", message: string) => void;
}

export interface RunningUiServer {
  readonly port: number;
  /** A one-time URL: `http://127.0.0.1:<port>/#t=<ticket>` (single use, valid a minute). */
  ticketUrl(): string;
  /** Sends a host event to every open page. */
  publish(event: UiEvent): void;
  /** Pages following the live feed now. */
  viewers(): number;
  close(): Promise<void>;
}

export const DEFAULT_PAGE_FOLDER = fileURLToPath(new URL("../../../ui/dist/", import.meta.url));

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

export async function startUiServer(options: UiServerOptions): Promise<RunningUiServer> {
  const { backend } = options;
  const log = options.log ?? (() => {});
  const sessions = new Sessions();
  const files = readStaticFiles(options.pageFolder ?? DEFAULT_PAGE_FOLDER);
  const feed = new Feed({
    snapshot: () => backend.snapshot(),
    log: (message) => log("warn", message),
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  });
  let port = 0;

  const ok = (res: ServerResponse, body: Record<string, unknown> = {}) => sendJson(res, 200, { ok: true, ...body });
  /** A tools tray command: the host's ToolRunner answers, a ToolError keeps its status. */
  const toolCall = async (
    req: IncomingMessage,
    res: ServerResponse,
    call: (tools: PageTools, body: Record<string, unknown>) => Promise<object>,
  ) => {
    if (!backend.tools) throw new UiHttpError(404, "this svc has no tools");
    const body = await readJson(req);
    try {
      ok(res, { ...(await call(backend.tools, body)) });
    } catch (error) {
      if (error instanceof ToolError) throw new UiHttpError(error.status, error.message);
      throw error;
    }
  };
  /**
   * `{path}` (typed by the person), `{handle}` (dropped or picked in the desktop shell) or
   * `{catalog}` (a name from the catalog): the path. `{address}` is taken before, on its own.
   */
  const givenPath = async (body: Record<string, unknown>): Promise<string> => {
    const given = [body.path, body.handle, body.catalog, body.address].filter((v) => v !== undefined).length;
    if (given !== 1)
      throw new UiHttpError(
        400,
        'send one of "path" (the .svc file\'s full path), "handle" (a file dropped in the svc app), "address" (its https address) or "catalog" (a name from the catalog)',
      );
    if (body.catalog !== undefined) {
      try {
        return await backend.catalogPackage(stringField(body, "catalog")!);
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
    }
    if (body.path !== undefined) return stringField(body, "path")!;
    if (!backend.givenFiles)
      throw new UiHttpError(400, '"handle": this svc takes no dropped files; type the path instead');
    try {
      return backend.givenFiles.pathOf(body.handle, "handle");
    } catch (error) {
      throw new UiHttpError(400, (error as Error).message);
    }
  };
  const posts: Record<string, Route> = {
    "/api/actions": async (req, res) => {
      const body = await readJson(req);
      const press = {
        blipId: stringField(body, "blipId")!,
        actionId: stringField(body, "actionId")!,
        ...(body.input === undefined ? {} : { input: stringField(body, "input")! }),
        ...(body.itemId === undefined ? {} : { itemId: stringField(body, "itemId")! }),
      };
      try {
        ok(res, { emitted: await backend.action(press) });
      } catch (error) {
        throw new UiHttpError(502, `the action failed: ${(error as Error).message}`);
      }
    },
    "/api/preferences": async (req, res) => {
      const body = await readJson(req);
      const allowed = body.allowed === undefined ? undefined : stringField(body, "allowed")!;
      try {
        await backend.setPreference(stringField(body, "extensionId")!, stringField(body, "name")!, body.value, allowed);
      } catch (error) {
        // A server address waits for the person: the page asks this question, then sends `allowed`.
        if (error instanceof GrantNeededError) return sendJson(res, 409, { error: error.message, grant: error.grant });
        throw new UiHttpError(400, (error as Error).message);
      }
      ok(res);
    },
    "/api/settings": async (req, res) => {
      const body = await readJson(req);
      try {
        ok(res, { settings: await backend.saveSettings(body) });
      } catch (error) {
        if (error instanceof UiHttpError) throw error;
        throw new UiHttpError(400, (error as Error).message);
      }
    },
    "/api/extensions": async (req, res) => {
      const body = await readJson(req);
      if (body.action !== "enable" && body.action !== "disable" && body.action !== "uninstall") {
        throw new UiHttpError(400, '"action" should be "enable", "disable" or "uninstall"');
      }
      try {
        await backend.manage(stringField(body, "extensionId")!, body.action);
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
      ok(res);
    },
    "/api/signins": async (req, res) => {
      const body = await readJson(req);
      if (body.action !== "connect" && body.action !== "disconnect")
        throw new UiHttpError(400, '"action" should be "connect" or "disconnect"');
      const connection = stringField(body, "connection", true);
      try {
        await backend.signIn({
          extensionId: stringField(body, "extensionId")!,
          provider: stringField(body, "provider")!,
          action: body.action,
          ...(connection ? { connection } : {}),
        });
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
      ok(res);
    },
    "/api/install/review": async (req, res) => {
      const body = await readJson(req);
      const address =
        body.address !== undefined && body.path === undefined && body.handle === undefined && body.catalog === undefined
          ? stringField(body, "address")!
          : undefined;
      const path = address === undefined ? await givenPath(body) : undefined;
      try {
        ok(res, await (address === undefined ? backend.reviewInstall(path!) : backend.reviewAddress(address)));
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
    },
    "/api/extensions/review": async (req, res) => {
      const body = await readJson(req);
      const extensionId = stringField(body, "extensionId")!;
      if (body.staged !== undefined && typeof body.staged !== "boolean")
        throw new UiHttpError(400, '"staged" should be true or false');
      try {
        ok(res, await backend.reviewAccept(extensionId, body.staged === true));
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
    },
    "/api/extensions/update": async (req, res) => {
      const extensionId = stringField(await readJson(req), "extensionId")!;
      try {
        ok(res, await backend.checkUpdate(extensionId));
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
    },
    "/api/install/decide": async (req, res) => {
      const body = await readJson(req);
      if (typeof body.accept !== "boolean") throw new UiHttpError(400, '"accept" should be true or false');
      try {
        ok(res, await backend.decideInstall(stringField(body, "reviewId")!, body.accept));
      } catch (error) {
        throw new UiHttpError(400, (error as Error).message);
      }
    },
    "/api/tools/run": (req, res) => toolCall(req, res, (tools, body) => tools.run(body)),
    "/api/tools/drop": (req, res) => toolCall(req, res, (tools, body) => tools.drop(body)),
    "/api/tools/cancel": (req, res) => toolCall(req, res, (tools, body) => tools.cancel(body)),
    "/api/tools/agents": (req, res) => toolCall(req, res, (tools, body) => tools.agents(body)),
    "/api/agent-files": async (req, res) => {
      const body = await readJson(req);
      const id = stringField(body, "id")!;
      if (typeof body.allow !== "boolean") throw new UiHttpError(400, '"allow" should be true or false');
      if (!backend.answerAgentFiles?.(id, body.allow))
        throw new UiHttpError(404, "this request is over (answered, timed out or withdrawn by the agent)");
      ok(res);
    },
    "/api/run": async (req, res) => {
      const id = stringField(await readJson(req), "extensionId")!;
      if (!backend.runNow(id)) throw new UiHttpError(404, `no loaded extension ${id}`);
      ok(res);
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    const api = path.startsWith("/api/");
    const refusal: Refusal | undefined =
      checkHost(req, port) ??
      checkOrigin(req, port) ??
      checkFetchSite(req) ??
      (api && path !== "/api/session" ? checkSession(req, sessions) : undefined) ??
      checkMethod(req);
    if (refusal) return sendJson(res, refusal.status, { error: refusal.message }, refusal.headers);

    if (!api) {
      const file = files.get(path);
      if (!file || (req.method !== "GET" && req.method !== "HEAD")) {
        return sendJson(res, file ? 405 : 404, {
          error: file ? `${req.method} is not allowed here: use GET` : `no page ${path.slice(0, 100)}`,
        });
      }
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "Content-Type": file.type,
        "Content-Length": file.body.length,
        "Cache-Control": "no-cache",
      });
      return void res.end(req.method === "HEAD" ? undefined : file.body);
    }
    if (path === "/api/events") {
      if (req.method !== "GET") throw new UiHttpError(405, "use GET /api/events", { Allow: "GET" });
      return feed.serve(req, res, SECURITY_HEADERS);
    }
    if (path === "/api/catalog" && req.method === "GET") return sendJson(res, 200, await backend.catalog());
    if (path === "/api/tools" && req.method === "GET")
      return sendJson(res, 200, { tools: backend.tools?.list() ?? [] });
    if (path === "/api/session") {
      if (req.method !== "POST") throw new UiHttpError(405, "use POST /api/session", { Allow: "POST" });
      const exchanged = sessions.exchange((await readJson(req)).ticket);
      if ("error" in exchanged) throw new UiHttpError(401, exchanged.error);
      return ok(res, { token: exchanged.token });
    }
    const route = posts[path];
    if (!route) throw new UiHttpError(404, `no route ${req.method} ${path.slice(0, 100)}`);
    if (req.method !== "POST") throw new UiHttpError(405, `use POST ${path}`, { Allow: "POST" });
    await route(req, res);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof UiHttpError) return sendJson(res, error.status, { error: error.message }, error.headers);
      log("error", `UI ${req.method} ${req.url?.slice(0, 100)} failed: ${(error as Error)?.stack ?? String(error)}`);
      sendJson(res, 500, { error: "internal error; details are in the svc log" });
    });
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  const fromEnv = process.env.SVC_UI_PORT;
  const envPort = fromEnv !== undefined && /^\d{1,5}$/.test(fromEnv) && Number(fromEnv) <= 65535 ? Number(fromEnv) : 0;
  if (fromEnv !== undefined && fromEnv !== "" && envPort === 0 && fromEnv !== "0")
    log(
      "warn",
      `SVC_UI_PORT should be a port number 0–65535, got ${JSON.stringify(fromEnv.slice(0, 20))}; using a free port`,
    );
  const wanted = options.port ?? envPort;
  port = (await listenWithFallback(server, wanted, LOOPBACK)).port;

  let closing: Promise<void> | undefined;
  return {
    port,
    ticketUrl: () => uiAddress(port, sessions.mintTicket()),
    publish: (event) => feed.publish(event),
    viewers: () => feed.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        feed.closeAll();
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 100).unref();
      });
      return closing;
    },
  };
}
