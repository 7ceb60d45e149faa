/**
 * Expected failures of a request, as data: a status and one line for the person who sent it.
 * Every error body is `{"error": "<message>"}` (DESIGN.md "Decisions where SPEC.md is silent").
 */
import type { Response } from "express";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * Sends `{"error": message}` with `status`.
 *
 * @example
 * sendError(res, 404, "no pushed blip webhook/deploy");
 */
export function sendError(
  res: Response,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  res.status(status).set(headers).json({ error: message });
}
