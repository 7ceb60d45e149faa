/**
 * Answers and bodies of the UI server: the security headers on everything (UI.md "Headers"),
 * JSON answers, and JSON bodies of at most 1 MB.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMIT_BYTES, parseJsonBody } from "../support/http/index.js";

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Sent with every answer, files and API alike. */
export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

/** A request the server refuses, with the status and a message for a person. */
export class UiHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** The JSON body of a POST: `application/json`, at most 1 MB (exactly 1 MB is fine), an object. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new UiHttpError(415, "send the body as Content-Type: application/json");
  const tooLarge = () => new UiHttpError(413, `the body is over 1 MB (${BODY_LIMIT_BYTES} bytes)`);
  if (Number(req.headers["content-length"]) > BODY_LIMIT_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = parseJsonBody(Buffer.concat(chunks));
  } catch (error) {
    throw new UiHttpError(400, (error as Error).message);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new UiHttpError(400, "the body should be a JSON object");
  return body as Record<string, unknown>;
}

/** A string field of a body, or a 400 naming it. */
export function stringField(body: Record<string, unknown>, name: string, optional = false): string | undefined {
  const value = body[name];
  if (value === undefined && optional) return undefined;
  if (typeof value !== "string" || value.length === 0 || value.length > 100_000) {
    throw new UiHttpError(400, `"${name}" should be a non-empty string`);
  }
  return value;
}
