/**
 * What every request must pass before any route sees it (SPEC.md "Authentication", DESIGN.md
 * HTTP table): no `OPTIONS` (405, so a browser preflight never succeeds), the `Host` header of
 * our own loopback address (403, against DNS rebinding), no `Origin` header (403: browsers add
 * it, local tools do not), and the bearer token from `webhook.json` (401).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { APP_PROOF_NONCE_HEADER, appProof, isProofNonce } from "@svc/runtime";
import { sendError } from "../support/http/index.js";

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** Every `OPTIONS` request: 405, never an `Access-Control-*` header. */
export const refuseOptions: Middleware = function refuseOptions(req, res, next) {
  if (req.method !== "OPTIONS") return next();
  sendError(res, 405, "OPTIONS is not allowed: this server answers no cross-origin preflight", {
    Allow: "GET, POST, PUT, DELETE",
  });
};

/**
 * Only `Host: 127.0.0.1:<port>` or `localhost:<port>`; `port` is read per request because it
 * is known only once the server listens.
 *
 * @example
 * app.use(requireLoopbackHost(() => server.port));
 */
export function requireLoopbackHost(port: () => number): Middleware {
  return function requireLoopbackHost(req, res, next) {
    const host = (req.headers.host ?? "").toLowerCase();
    const p = port();
    if (host === `127.0.0.1:${p}` || host === `localhost:${p}`) return next();
    const shown =
      req.headers.host === undefined ? "no Host header" : `Host ${JSON.stringify(req.headers.host.slice(0, 100))}`;
    sendError(res, 403, `${shown}: send Host 127.0.0.1:${p} or localhost:${p}`);
  };
}

/** Any `Origin` header means a browser page is asking: 403. */
export const refuseOrigin: Middleware = function refuseOrigin(req, res, next) {
  if (req.headers.origin === undefined) return next();
  sendError(res, 403, "requests from web pages (with an Origin header) are not allowed");
};

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

/**
 * `Authorization: Bearer <token>` on every request, compared in constant time; otherwise 401
 * with `WWW-Authenticate: Bearer`.
 *
 * @example
 * app.use(requireBearer(token));
 */
export function requireBearer(token: string): Middleware {
  // Hashing both sides gives equal lengths, so the comparison time says nothing about the token.
  const expected = digest(token);
  const challenge = { "WWW-Authenticate": "Bearer" };
  return function requireBearer(req, res, next) {
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
    if (!match) {
      return sendError(
        res,
        401,
        "missing bearer token: send Authorization: Bearer <token>, with the token from webhook.json",
        challenge,
      );
    }
    if (timingSafeEqual(digest(match[1]), expected)) return next();
    sendError(
      res,
      401,
      "wrong bearer token: read the current one from webhook.json (svc writes a new one at every launch)",
      challenge,
    );
  };
}

/**
 * `GET /v1/proof` with `Svc-Proof-Nonce: <43 base64url characters>` → `{"proof": HMAC(token, nonce)}`:
 * how a client learns it reached svc before it sends the token (@svc/runtime's app-link.ts). The
 * token itself never leaves, and a fresh nonce makes an old answer useless.
 */
export function proveToken(token: string): Middleware {
  return function proveToken(req, res) {
    const nonce = req.headers[APP_PROOF_NONCE_HEADER];
    if (!isProofNonce(nonce))
      return sendError(res, 400, `send ${APP_PROOF_NONCE_HEADER}: 32 random bytes as base64url (43 characters)`);
    res
      .status(200)
      .set("Cache-Control", "no-store")
      .json({ proof: appProof(token, nonce) });
  };
}
