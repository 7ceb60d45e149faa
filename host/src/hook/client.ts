/**
 * svc-hook's one request to the app: JSON over loopback with the token from `webhook.json`,
 * read afresh on every run, given up after a short timeout. Every failure becomes one line. The
 * port first proves it is svc (`GET /v1/proof`, @svc/runtime's app-link.ts): a squatter on a
 * stale port gets neither the token nor the payload.
 */
import { request } from "node:http";
import { NotSvcError, proveApp } from "@svc/runtime";
import { readWebhookFile } from "../support/webhook-file.js";

/** How long svc-hook waits for the app: a hook must never hold up its caller. */
export const HOOK_TIMEOUT_MS = 2000;

export interface HookAnswer {
  status: number;
  body: unknown;
}

/** Anything that kept the request from being answered, as one line for the person. */
export class HookError extends Error {
  override name = "HookError";
}

/**
 * Sends one request to the app described by `webhookFile`.
 *
 * @example
 * const answer = await callApp(paths.webhookFile, "POST", "/v1/blips", payload);
 * @throws HookError when the app is not running, too slow, or the file is missing.
 */
export async function callApp(
  webhookFile: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = HOOK_TIMEOUT_MS,
): Promise<HookAnswer> {
  let info;
  try {
    info = await readWebhookFile(webhookFile);
  } catch (error) {
    throw new HookError((error as Error).message);
  }
  const unreachable = (error: NodeJS.ErrnoException): HookError => {
    if (error instanceof HookError) return error;
    if (error instanceof NotSvcError) return new HookError(error.message);
    if (error.code === "ETIMEDOUT") return new HookError(`svc did not answer within ${timeoutMs / 1000} s`);
    if (error.code === "ECONNREFUSED")
      return new HookError(`svc is not running (nothing listens on 127.0.0.1:${info.port})`);
    return new HookError(`could not reach svc on 127.0.0.1:${info.port}: ${error.message}`);
  };
  // One deadline for the whole exchange, the proof included, however the time is spent.
  const deadline = Date.now() + timeoutMs;
  await proveApp(info.port, info.token, { timeoutMs }).catch((error: NodeJS.ErrnoException) => {
    throw unreachable(error);
  });
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), "utf8");
  return new Promise<HookAnswer>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: info.port,
        method,
        path,
        headers: {
          Authorization: `Bearer ${info.token}`,
          ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: keep the text for the message.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on("error", (error) => reject(new HookError(`the answer from svc broke off: ${error.message}`)));
      },
    );
    const timer = setTimeout(
      () => req.destroy(new HookError(`svc did not answer within ${timeoutMs / 1000} s`)),
      Math.max(0, deadline - Date.now()),
    );
    req.on("close", () => clearTimeout(timer));
    req.on("error", (error: NodeJS.ErrnoException) => reject(unreachable(error)));
    req.end(payload);
  });
}
