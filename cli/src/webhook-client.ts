/**
 * svckit's side of the app's local HTTP server, over the one client (@svc/runtime's
 * app-client.ts: `webhook.json` read afresh, the port's proof before the token or any argument):
 * turns every way a request can go wrong into one line for a person, in svckit's words.
 */
import { join } from "node:path";
import type { V1Params, V1RouteName } from "@svc/api";
import {
  AppAnswerError,
  AppUnreachableError,
  callRoute,
  proveApp,
  readWebhookFile,
  unreachableReason,
  WebhookFileError,
} from "@svc/runtime";
import { CliError } from "./errors.js";

export interface WebhookConfig {
  port: number;
  token: string;
  /** Where it was read from, for messages. */
  path: string;
}

/**
 * Reads `<support>/webhook.json`.
 *
 * @example
 * const config = await readWebhookConfig("/Users/ann/Library/Application Support/Svc");
 * @throws CliError when the file is missing or not `{port, token}`.
 */
export async function readWebhookConfig(support: string): Promise<WebhookConfig> {
  const path = join(support, "webhook.json");
  try {
    return { ...(await readWebhookFile(path)), path };
  } catch (error) {
    if (!(error instanceof WebhookFileError)) throw error;
    if (error.reason === "missing")
      throw new CliError(
        `no webhook.json in ${support}: start the app (it writes the file at every launch),\n` +
          "or set SVC_HOME to the support folder the app uses.",
      );
    if (error.message.startsWith("cannot read ")) throw new CliError(error.message);
    throw new CliError(`${path} is not {"port": <number>, "token": "<string>"}: restart the app to rewrite it.`);
  }
}

export interface CallOptions {
  /** Give up when the app is silent this long (default 10 s). */
  timeoutMs?: number;
  /** More request headers (the bearer token is always the one from webhook.json). */
  headers?: Record<string, string>;
  /** Ends the request (the app sees the connection close). */
  signal?: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/**
 * Has the port prove it holds the token in `webhook.json` (it is svc, not something that took a
 * stale port), sending a fresh nonce and never the token.
 *
 * @throws CliError that says the app is not running, or that something else answers there.
 */
export async function proveConfig(
  config: WebhookConfig,
  options: Pick<CallOptions, "timeoutMs" | "signal"> = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  await proveApp(config.port, config.token, { timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }).catch(
    (error: Error) => {
      throw connectionError(new AppUnreachableError(unreachableReason(error), config.port, error), timeoutMs);
    },
  );
}

/**
 * Sends one request of the route table (sdk's `V1_ROUTES`) to the app through the one client
 * (@svc/runtime's app-client.ts) and returns its answer, once the port proved it is svc and the
 * answer fits the route; connection failures become a `CliError` that says the app is not running.
 *
 * @example
 * const answer = await callApp(config, "pushBlips", {}, '{"title":"Hi","layout":"stat","data":{}}');
 */
export async function callApp<N extends V1RouteName>(
  config: WebhookConfig,
  name: N,
  params: V1Params<N>,
  body?: string,
  options: CallOptions = {},
): Promise<HttpAnswer> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  try {
    return await callRoute(config, name, params, {
      ...(body === undefined ? {} : { rawBody: body }),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof AppUnreachableError) throw connectionError(error, timeoutMs);
    if (error instanceof AppAnswerError) throw new CliError(error.message);
    throw error;
  }
}

/** The one client's reasons, as svckit says them. */
function connectionError(error: AppUnreachableError, timeoutMs: number): CliError {
  const where = `127.0.0.1:${error.port}`;
  switch (error.reason) {
    case "not-svc":
      return new CliError(error.message);
    case "refused":
      return new CliError(
        `the app is not running: nothing answers on ${where} (connection refused). Start the app and try again.`,
      );
    case "timeout":
      return new CliError(`the app did not answer on ${where} within ${timeoutMs / 1000} seconds.`);
    case "aborted":
      return new CliError(`the request to ${where} was cancelled before the app answered.`);
    case "reset":
      return new CliError(`the connection to ${where} was reset before the app answered.`);
    default:
      return new CliError(`cannot reach the app on ${where}: ${error.message}`);
  }
}

/** The `error` string of a JSON error body, or the body itself as text. */
export function errorText(body: unknown): string {
  if (body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string") {
    return (body as { error: string }).error;
  }
  if (body === undefined) return "(no body)";
  return typeof body === "string" ? body : JSON.stringify(body);
}
