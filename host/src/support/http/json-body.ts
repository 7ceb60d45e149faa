/**
 * Reading a JSON request body: `Content-Type: application/json` (415 otherwise), at most 1 MB
 * (413 past it; exactly 1 MB is fine), UTF-8, and JSON (400 `invalid JSON: …` otherwise).
 * The parsed value lands in `req.body`.
 */
import express from "express";
import type { NextFunction, Request, Response } from "express";
import { HttpError } from "./http-error.js";

/** The largest body accepted: 1 MB. */
export const BODY_LIMIT_BYTES = 1_048_576;

/** The 413 message. */
export const TOO_LARGE = `the body is over 1 MB (${BODY_LIMIT_BYTES} bytes)`;

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

const readRaw = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES, inflate: false });

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** 415 unless the media type is `application/json` with no charset or a UTF-8 one. */
function checkContentType(req: Request): void {
  const header = req.headers["content-type"];
  const [type = "", ...params] = (header ?? "").split(";");
  if (type.trim().toLowerCase() !== "application/json") {
    const got = header === undefined ? "no Content-Type" : `Content-Type ${JSON.stringify(header.slice(0, 100))}`;
    throw new HttpError(415, `${got}: send the body as Content-Type: application/json`);
  }
  for (const param of params) {
    const [name = "", value = ""] = param.split("=");
    const charset = value.trim().replace(/^"|"$/g, "").toLowerCase();
    if (name.trim().toLowerCase() === "charset" && charset !== "utf-8" && charset !== "utf8") {
      throw new HttpError(415, `charset ${JSON.stringify(charset)} is not supported: send UTF-8 JSON`);
    }
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Parses a body; `undefined` for an empty one.
 *
 * @example
 * parseJsonBody(Buffer.from('{"a":1}')) // { a: 1 }
 */
export function parseJsonBody(raw: Uint8Array): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpError(400, "invalid JSON: the body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `invalid JSON: ${(error as Error).message}`);
  }
}

/**
 * The body reader for a route. `optional`: a request with no body at all passes without a
 * Content-Type (`req.body` undefined); with `false` an empty body is a 400.
 *
 * @example
 * app.post("/v1/blips", jsonBody({ optional: false }), pushBlips);
 */
export function jsonBody(options: { optional: boolean }): Middleware {
  return function jsonBody(req, res, next) {
    if (options.optional && !hasBody(req)) {
      req.body = undefined;
      return next();
    }
    try {
      checkContentType(req);
      // Answer at once rather than wait for a body we will refuse; node discards what follows.
      if (Number(req.headers["content-length"]) > BODY_LIMIT_BYTES) throw new HttpError(413, TOO_LARGE);
    } catch (error) {
      return next(error);
    }
    readRaw(req, res, (error?: unknown) => {
      if (error) return next(error);
      const raw: unknown = req.body;
      try {
        req.body = parseJsonBody(raw instanceof Uint8Array ? raw : new Uint8Array());
      } catch (parseError) {
        return next(parseError);
      }
      if (req.body === undefined && !options.optional)
        return next(new HttpError(400, "invalid JSON: the body is empty"));
      next();
    });
  };
}
