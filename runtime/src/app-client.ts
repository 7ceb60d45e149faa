/**
 * The one client of the app's local HTTP API (`/v1`, sdk's `V1_ROUTES`): svc-hook, svckit, the
 * `svc-host` subcommands, `svc-host ui` and the desktop shell all call through it. It reads
 * `webhook.json` afresh on every call (the token is new at every launch: the one reader of that
 * file), has the port prove it holds the token before the token or any argument goes to it
 * (`proveApp`, app-link.ts), then sends the request with the token.
 *
 * Failures are typed, not worded: {@link WebhookFileError} (`missing`, `invalid`),
 * {@link AppUnreachableError} (`not-svc`, `refused`, `timeout`, `aborted`, `reset`, `broken`,
 * `other`) and, for a route of the table, {@link AppAnswerError} (the answer is not the route's).
 * Each caller says them in its own words to its own person.
 */
import { readFile } from "node:fs/promises";
import { request, type IncomingMessage } from "node:http";
import { checkV1Answer, v1Path, V1_ROUTES, webhookFileSchema, type V1Params, type V1RouteName } from "@svc/api";
import { NotSvcError, proveApp } from "./app-link.js";

/** Where the app listens and its token, from `webhook.json`. */
export interface WebhookInfo {
  port: number;
  token: string;
}

/** `webhook.json` is missing or not `{port, token}`. The message is a default; callers may say it their way. */
export class WebhookFileError extends Error {
  override name = "WebhookFileError";
  constructor(
    message: string,
    /** `missing`: no file (the app has never run here, or is not running); `invalid`: unreadable or wrong shape. */
    readonly reason: "missing" | "invalid",
    readonly path: string,
  ) {
    super(message);
  }
}

/**
 * Reads and checks `webhook.json`: the only reader of it.
 *
 * @example
 * const { port, token } = await readWebhookFile("/tmp/svc/webhook.json");
 * @throws WebhookFileError when the file is missing or not `{port, token}`.
 */
export async function readWebhookFile(path: string): Promise<WebhookInfo> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new WebhookFileError(`no ${path}: is svc running? (it writes this file at every launch)`, "missing", path);
    throw new WebhookFileError(`cannot read ${path}: ${(error as Error).message}`, "invalid", path);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const checked = webhookFileSchema.safeParse(parsed);
  if (!checked.success)
    throw new WebhookFileError(
      `${path} is not {"port": <number>, "token": "<string>"}: restart svc to rewrite it`,
      "invalid",
      path,
    );
  return checked.data;
}

/** Why no answer came: a caller words each for its person. */
export type UnreachableReason = "not-svc" | "refused" | "timeout" | "aborted" | "reset" | "broken" | "other";

/** The app could not be asked, or its answer broke off; `cause` is the connection's own error. */
export class AppUnreachableError extends Error {
  override name = "AppUnreachableError";
  constructor(
    readonly reason: UnreachableReason,
    readonly port: number,
    override readonly cause: Error,
  ) {
    super(cause.message);
  }
}

/** The app answered a route with a body its table entry does not allow (sdk's `checkV1Answer`); the message names the route. */
export class AppAnswerError extends Error {
  override name = "AppAnswerError";
  constructor(
    readonly route: V1RouteName,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface AppRequestOptions {
  /** A JSON value to send (or `rawBody`: JSON text as the caller has it). */
  body?: unknown;
  rawBody?: string;
  /** More request headers; the token is always the one from `webhook.json`. */
  headers?: Record<string, string>;
  /** One deadline for the whole exchange, the proof included. Default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface AppAnswer {
  status: number;
  /** The answer parsed as JSON; its text when it is not JSON; `undefined` when empty. */
  body: unknown;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** Why a connection failed, as {@link AppUnreachableError} names it. */
export function unreachableReason(error: Error): UnreachableReason {
  if (error instanceof NotSvcError) return "not-svc";
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ETIMEDOUT") return "timeout";
  if (code === "ABORT_ERR" || error.name === "AbortError") return "aborted";
  if (code === "ECONNRESET") return "reset";
  return "other";
}

/**
 * Proves the port is svc, then sends one request with the token and resolves with the open
 * answer (its body not yet read). The base of {@link callApp} and of the event streams.
 *
 * @throws AppUnreachableError
 */
export async function openAppRequest(
  info: WebhookInfo,
  method: string,
  path: string,
  options: AppRequestOptions = {},
): Promise<{ answer: IncomingMessage; stopDeadline: () => void }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const unreachable = (error: Error): AppUnreachableError =>
    error instanceof AppUnreachableError ? error : new AppUnreachableError(unreachableReason(error), info.port, error);
  const started = Date.now();
  await proveApp(info.port, info.token, { timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }).catch(
    (error: Error) => {
      throw unreachable(error);
    },
  );
  const payload =
    options.rawBody !== undefined
      ? Buffer.from(options.rawBody, "utf8")
      : options.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(options.body), "utf8");
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: info.port,
      method,
      path,
      headers: {
        ...options.headers,
        authorization: `Bearer ${info.token}`,
        ...(payload ? { "content-type": "application/json", "content-length": String(payload.length) } : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
      Math.max(0, timeoutMs - (Date.now() - started)),
    );
    req.on("close", () => clearTimeout(timer));
    req.on("error", (error) => reject(unreachable(error)));
    req.on("response", (answer) => {
      answer.on("error", () => {});
      resolve({ answer, stopDeadline: () => clearTimeout(timer) });
    });
    req.end(payload);
  });
}

/**
 * One request to the app: `webhook.json` read now, the proof, then the request. Resolves with
 * every status (a 4xx is an answer, not an error).
 *
 * @example
 * const { status, body } = await callApp(support.webhookFile, "GET", "/v1/extensions");
 * @throws WebhookFileError, AppUnreachableError
 */
export async function callApp(
  webhookFile: string | WebhookInfo,
  method: string,
  path: string,
  options: AppRequestOptions = {},
): Promise<AppAnswer> {
  const info = typeof webhookFile === "string" ? await readWebhookFile(webhookFile) : webhookFile;
  const { answer } = await openAppRequest(info, method, path, options);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    answer.on("data", (chunk: Buffer) => chunks.push(chunk));
    answer.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: keep the text, it still helps the person.
      }
      resolve({ status: answer.statusCode ?? 0, body });
    });
    answer.on("error", (error) => reject(new AppUnreachableError("broken", info.port, error)));
    answer.on("aborted", () => reject(new AppUnreachableError("broken", info.port, new Error("the answer broke off"))));
  });
}

/**
 * {@link callApp} for a route of the table (sdk's `V1_ROUTES`): its method, its path filled, the
 * `query` appended; the answer is checked against the route (a 2xx against its answer schema, any
 * other status against the error shape) before the caller sees it.
 *
 * @example
 * await callRoute(file, "setOption", { id: "deploys", name: "token" }, { body: { value: "x" } });
 * @throws WebhookFileError, AppUnreachableError, AppAnswerError
 */
export async function callRoute<N extends V1RouteName>(
  webhookFile: string | WebhookInfo,
  name: N,
  params: V1Params<N>,
  options: AppRequestOptions & { query?: Record<string, string> } = {},
): Promise<AppAnswer> {
  const { query, ...rest } = options;
  const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
  const answer = await callApp(webhookFile, V1_ROUTES[name].method, v1Path(name, params) + search, rest);
  const mismatch = checkV1Answer(name, answer.status, answer.body);
  if (mismatch) throw new AppAnswerError(name, answer.status, mismatch.message);
  return answer;
}
