/**
 * The checks every UI request passes, in order (UI.md): the exact `Host` (DNS rebinding), an
 * `Origin` (when present) equal to our own, `Sec-Fetch-Site` same-origin or none (another site's
 * page), a session for the API, then no `OPTIONS`. Each returns the refusal, or undefined.
 */
import type { IncomingMessage } from "node:http";
import type { Sessions } from "./sessions.js";

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** `127.0.0.1:<port>` or `localhost:<port>` only. */
export function checkHost(req: IncomingMessage, port: number): Refusal | undefined {
  const host = (req.headers.host ?? "").toLowerCase();
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return undefined;
  const shown =
    req.headers.host === undefined ? "no Host header" : `Host ${JSON.stringify(req.headers.host.slice(0, 100))}`;
  return { status: 403, message: `${shown}: open http://127.0.0.1:${port}/ itself` };
}

/** An `Origin` header, when a browser sends one, must be this server's own. */
export function checkOrigin(req: IncomingMessage, port: number): Refusal | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`) return undefined;
  return { status: 403, message: "requests from other web pages are not allowed" };
}

/** Browsers say where a request comes from; only our own page (or the address bar) may call. */
export function checkFetchSite(req: IncomingMessage): Refusal | undefined {
  const site = req.headers["sec-fetch-site"];
  if (site === undefined || site === "same-origin" || site === "none") return undefined;
  return { status: 403, message: `requests from ${JSON.stringify(String(site).slice(0, 40))} pages are not allowed` };
}

/** `Authorization: Bearer <session token>`. */
export function checkSession(req: IncomingMessage, sessions: Sessions): Refusal | undefined {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  const challenge = { "WWW-Authenticate": "Bearer" };
  if (!match) return { status: 401, message: "no session: open the UI with svc-host ui", headers: challenge };
  if (!sessions.isSession(match[1]))
    return {
      status: 401,
      message: "this session is unknown (svc restarted?): open the UI again with svc-host ui",
      headers: challenge,
    };
  return undefined;
}

/** A preflight is never answered, so no other page can send the session header. */
export function checkMethod(req: IncomingMessage): Refusal | undefined {
  if (req.method !== "OPTIONS") return undefined;
  return {
    status: 405,
    message: "OPTIONS is not allowed: this server answers no cross-origin preflight",
    headers: { Allow: "GET, POST" },
  };
}
