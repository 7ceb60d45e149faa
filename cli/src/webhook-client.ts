/**
 * The client side of the app's local HTTP server: reads `webhook.json` afresh on every call
 * (the app writes a new token at each launch), has the port prove it is svc before the token or
 * any argument is sent (`GET /v1/proof`, @svc/runtime's app-link.ts), and turns every way a
 * request can go wrong into one line for a person.
 */
import { request } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { webhookFileSchema } from "@svc/api";
import { NotSvcError, proveApp } from "@svc/runtime";
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
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new CliError(
        `no webhook.json in ${support}: start the app (it writes the file at every launch),\n` +
          "or set SVC_HOME to the support folder the app uses.",
      );
    }
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const checked = webhookFileSchema.safeParse(parsed);
  if (!checked.success) {
    throw new CliError(`${path} is not {"port": <number>, "token": "<string>"}: restart the app to rewrite it.`);
  }
  return { ...checked.data, path };
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
      throw connectionError(error, config, timeoutMs);
    },
  );
}

/**
 * Sends one JSON request to the app and returns its answer, once the port proved it is svc;
 * connection failures become a `CliError` that says the app is not running.
 *
 * @example
 * const answer = await callApp(config, "POST", "/v1/blips", '{"title":"Hi","layout":"stat","data":{}}');
 */
export async function callApp(
  config: WebhookConfig,
  method: string,
  path: string,
  body?: string,
  options: CallOptions = {},
): Promise<HttpAnswer> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  await proveConfig(config, options);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers, authorization: `Bearer ${config.token}` };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const req = request(
      {
        host: "127.0.0.1",
        port: config.port,
        method,
        path,
        headers,
        timeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text === "" ? undefined : JSON.parse(text);
          } catch {
            // Not JSON: keep the text, it still helps the person.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on("error", (error) => reject(connectionError(error, config, timeoutMs)));
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", (error) => reject(connectionError(error, config, timeoutMs)));
    req.end(body);
  });
}

function connectionError(error: Error, config: WebhookConfig, timeoutMs: number): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof NotSvcError) return new CliError(error.message);
  const code = (error as NodeJS.ErrnoException).code;
  const where = `127.0.0.1:${config.port}`;
  if (code === "ECONNREFUSED") {
    return new CliError(
      `the app is not running: nothing answers on ${where} (connection refused). Start the app and try again.`,
    );
  }
  if (code === "ETIMEDOUT")
    return new CliError(`the app did not answer on ${where} within ${timeoutMs / 1000} seconds.`);
  if (code === "ABORT_ERR") return new CliError(`the request to ${where} was cancelled before the app answered.`);
  if (code === "ECONNRESET") return new CliError(`the connection to ${where} was reset before the app answered.`);
  return new CliError(`cannot reach the app on ${where}: ${error.message}`);
}

/** The `error` string of a JSON error body, or the body itself as text. */
export function errorText(body: unknown): string {
  if (body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string") {
    return (body as { error: string }).error;
  }
  if (body === undefined) return "(no body)";
  return typeof body === "string" ? body : JSON.stringify(body);
}
