/**
 * How a local program knows it reached svc and not a squatter on svc's port (issue 31, "the app's
 * keys"). `webhook.json` names a port and a token; the port can outlive the app, and anything
 * another account starts there would be handed the token, the caller's arguments and, for the
 * shell, a page to load. So every client first asks `GET /v1/proof` with a fresh nonce and
 * **without** the token; svc answers an HMAC-SHA256 of the nonce keyed by the token, which only
 * the holder of the token can compute. Only then does the client send the token or trust the
 * answer. Declared once here: the server (host/src/http/app.ts) and every client (the desktop
 * shell, svckit, svc-hook, `svc-host ui`) import it.
 *
 * Also the one shape of the UI address `POST /v1/ui/tickets` answers, so `svc-host ui` and the
 * shell open or load nothing else.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { request } from "node:http";
import { V1_ROUTES } from "@svc/api";

/** The route that proves the server holds the token; it needs no token itself (sdk's `V1_ROUTES.proof`). */
export const APP_PROOF_ROUTE = V1_ROUTES.proof.path;
/** The request header carrying the client's nonce. */
export const APP_PROOF_NONCE_HEADER = "svc-proof-nonce";

/** 32 random bytes, base64url: 43 characters. */
const NONCE = /^[A-Za-z0-9_-]{43}$/;
/** Domain separation: this HMAC means "I hold svc's token" and nothing else. */
const LABEL = "svc proves it holds the webhook token\n";
/** A proof answer is `{"proof":"<43 characters>"}`; an answer over this many bytes is not svc. */
export const MAX_PROOF_ANSWER_BYTES = 1024;

/** A fresh nonce for one proof. */
export function newProofNonce(): string {
  return randomBytes(32).toString("base64url");
}

export function isProofNonce(value: unknown): value is string {
  return typeof value === "string" && NONCE.test(value);
}

/**
 * The proof for a nonce: HMAC-SHA256 keyed by the token, base64url.
 *
 * @example
 * appProof(token, nonce) // "Zq0…" (43 characters)
 */
export function appProof(token: string, nonce: string): string {
  return createHmac("sha256", token)
    .update(LABEL + nonce, "utf8")
    .digest("base64url");
}

/** True when `answer` is the proof for `nonce` under `token`, compared in constant time. */
export function proofHolds(token: string, nonce: string, answer: unknown): boolean {
  if (typeof answer !== "string") return false;
  const expected = Buffer.from(appProof(token, nonce), "utf8");
  const given = Buffer.from(answer, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What every client says when the port answers without the proof. */
export function notSvcMessage(port: number): string {
  return `something else is answering on port ${port}: it is not svc (it could not prove it holds svc's key). Stop it, or start svc-host again.`;
}

/** Something answered on the port, but not with svc's proof. */
export class NotSvcError extends Error {
  override name = "NotSvcError";
  constructor(readonly port: number) {
    super(notSvcMessage(port));
  }
}

export interface ProveOptions {
  /** Give up after this long (the error has `code: "ETIMEDOUT"`). Default 5 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Asks `127.0.0.1:<port>` to prove it holds `token`, sending a fresh nonce and never the token.
 * Resolves when it did. Rejects with {@link NotSvcError} when something answered without the
 * proof, or with the connection's own error (its `code`: `ECONNREFUSED`, `ETIMEDOUT` …) when
 * nothing answered, so each client keeps its own words for "svc is not running".
 *
 * @example
 * await proveApp(info.port, info.token); // then, and only then: Authorization: Bearer <token>
 */
export function proveApp(port: number, token: string, options: ProveOptions = {}): Promise<void> {
  const nonce = newProofNonce();
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "GET",
        path: APP_PROOF_ROUTE,
        headers: { [APP_PROOF_NONCE_HEADER]: nonce },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_PROOF_ANSWER_BYTES) {
            reject(new NotSvcError(port));
            return void req.destroy();
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          let proof: unknown;
          try {
            proof = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { proof?: unknown })?.proof;
          } catch {
            proof = undefined;
          }
          if (res.statusCode === 200 && proofHolds(token, nonce, proof)) resolve();
          else reject(new NotSvcError(port));
        });
        res.on("error", (error) => reject(error));
      },
    );
    const deadline = setTimeout(
      () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
      timeoutMs,
    );
    req.on("close", () => clearTimeout(deadline));
    req.on("error", reject);
    req.end();
  });
}

/** A UI ticket as the UI server mints them: 32 random bytes, base64url. */
const TICKET = "[A-Za-z0-9_-]{43}";
const UI_ADDRESS = new RegExp(`^http://127\\.0\\.0\\.1:([1-9][0-9]{0,4})/#t=${TICKET}$`);

/**
 * The one-time UI address for a ticket: `http://127.0.0.1:<port>/#t=<ticket>`.
 *
 * @example
 * uiAddress(41234, ticket) // "http://127.0.0.1:41234/#t=…"
 */
export function uiAddress(port: number, ticket: string): string {
  return `http://127.0.0.1:${port}/#t=${ticket}`;
}

/** True only for an address of exactly {@link uiAddress}'s shape (port 1–65535). */
export function isUiAddress(url: unknown): boolean {
  if (typeof url !== "string") return false;
  const match = UI_ADDRESS.exec(url);
  return match !== null && Number(match[1]) <= 65535;
}
