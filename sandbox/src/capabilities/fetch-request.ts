/**
 * Turns the guest's `fetch` op arguments into a checked request: method, headers and body,
 * with the headers a guest must not choose taken out.
 */
import { decodeBase64, readArgs } from "./args.js";
import { describeBytes, type CapabilityLimits } from "./limits.js";

export type RedirectMode = "follow" | "manual" | "error";

export interface FetchRequest {
  requestId: string;
  url: string;
  method: string;
  headers: [string, string][];
  body: Buffer | undefined;
  redirect: RedirectMode;
}

/** Longest URL a guest may ask for, in characters. */
export const MAX_URL_CHARS = 65_536;
/** Most header lines one request may carry. */
export const MAX_HEADERS = 256;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const NORMALIZED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"];

/**
 * Headers the host owns: the connection is the host's (framing, encoding, target), and a
 * guest-chosen `Host` could reach another site behind an allowed address. Dropped silently,
 * as the web platform drops forbidden headers.
 */
const HOST_OWNED = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
  "expect",
  "accept-encoding",
  "http2-settings",
]);

function hostOwned(name: string): boolean {
  return HOST_OWNED.has(name) || name.startsWith("proxy-");
}

/**
 * Reads and checks the arguments of the `fetch` op.
 * @example
 * parseFetchArgs({ requestId: 1, url: "https://a.example/", method: "post", headers: [] }, limits)
 * // { requestId: "1", method: "POST", body: undefined, redirect: "follow", … }
 */
export function parseFetchArgs(raw: unknown, limits: CapabilityLimits): FetchRequest {
  const args = readArgs("fetch", raw);
  const requestId = args.id("requestId");
  const url = args.string("url", { maxLength: MAX_URL_CHARS });
  const method = parseMethod(args.optionalString("method", { maxLength: 64 }) ?? "GET");
  const headers = parseHeaders(args.any("headers"));
  const encoded = args.optionalString("body");
  const bodyEncoding = args.oneOf("bodyEncoding", ["base64", "utf8"] as const, "base64");
  const body = encoded === undefined ? undefined : decodeBody(encoded, bodyEncoding, limits.fetchRequestBytes);
  if (body && (method === "GET" || method === "HEAD")) {
    throw new TypeError(`fetch: a ${method} request cannot have a body`);
  }
  const redirect = args.oneOf("redirect", ["follow", "manual", "error"] as const, "follow");
  return { requestId, url, method, headers, body, redirect };
}

/** A guest string body is sent as UTF-8 text (no slow base64 in the guest); bytes as base64. */
function decodeBody(encoded: string, encoding: "base64" | "utf8", maxBytes: number): Buffer {
  if (encoding === "base64") return decodeBase64("fetch: request body", encoded, maxBytes);
  const bytes = Buffer.from(encoded, "utf8");
  if (bytes.length > maxBytes)
    throw new RangeError(`fetch: request body is over the limit of ${describeBytes(maxBytes)}`);
  return bytes;
}

function parseMethod(raw: string): string {
  if (!TOKEN.test(raw)) throw new TypeError(`fetch: "${raw}" is not a valid HTTP method`);
  const upper = raw.toUpperCase();
  if (upper === "CONNECT" || upper === "TRACE" || upper === "TRACK") {
    throw new TypeError(`fetch: the ${upper} method is not allowed`);
  }
  return NORMALIZED_METHODS.includes(upper) ? upper : raw;
}

function parseHeaders(raw: unknown): [string, string][] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new TypeError(`fetch: "headers" should be an array of [name, value] pairs`);
  if (raw.length > MAX_HEADERS) throw new RangeError(`fetch: at most ${MAX_HEADERS} headers are allowed`);
  const headers: [string, string][] = [];
  for (const pair of raw) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") {
      throw new TypeError(`fetch: "headers" should be an array of [name, value] pairs`);
    }
    const name = pair[0].toLowerCase();
    const value = pair[1].trim();
    if (!TOKEN.test(name)) throw new TypeError(`fetch: "${pair[0]}" is not a valid header name`);
    if (/[\r\n\0]/.test(value))
      throw new TypeError(`fetch: the value of header "${name}" contains a line break or NUL`);
    if (!hostOwned(name)) headers.push([name, value]);
  }
  return headers;
}
