/**
 * `webhook.json`: how local clients (svc-hook, `svckit send`, scripts) find the HTTP server.
 * `{port, token}`, file mode 0600, rewritten with a new token at every launch, so clients read
 * it on every run instead of caching the token (SPEC.md "Authentication" 2).
 */
import { randomBytes } from "node:crypto";
import { readFile, unlink } from "node:fs/promises";
import { webhookFileSchema } from "@svc/api";
import { writeFileAtomic } from "./atomic-file.js";

export interface WebhookInfo {
  port: number;
  token: string;
}

/**
 * A fresh bearer token: 32 random bytes, base64url (43 characters).
 *
 * @example
 * newToken() // "q3Zt…" (43 characters of A–Z a–z 0–9 - _)
 */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Writes `{port, token}` atomically with mode 0600.
 *
 * @example
 * await writeWebhookFile("/tmp/svc/webhook.json", { port: 47811, token: newToken() });
 */
export async function writeWebhookFile(path: string, info: WebhookInfo): Promise<void> {
  const text = `${JSON.stringify({ port: info.port, token: info.token }, null, 2)}\n`;
  await writeFileAtomic(path, text, { mode: 0o600 });
}

/**
 * Removes `webhook.json` at a clean stop, only while it still holds `token` (a later launch on
 * the same folder may have written its own): a file left behind names a port that anything may
 * take next. Never throws; a file that is gone already is fine.
 *
 * @example
 * await removeWebhookFile(support.webhookFile, http.token);
 */
export async function removeWebhookFile(path: string, token: string): Promise<void> {
  const ours = await readWebhookFile(path).then(
    (info) => info.token === token,
    () => false,
  );
  if (ours) await unlink(path).catch(() => {});
}

/** `webhook.json` is missing or not `{port, token}`; the message says what to do. */
export class WebhookFileError extends Error {
  constructor(
    message: string,
    /** `missing`: no file (the app has never run here); `invalid`: unreadable or wrong shape. */
    readonly reason: "missing" | "invalid",
  ) {
    super(message);
    this.name = "WebhookFileError";
  }
}

/**
 * Reads and checks `webhook.json`.
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
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new WebhookFileError(`no ${path}: is svc running? (it writes this file at every launch)`, "missing");
    }
    throw new WebhookFileError(`cannot read ${path}: ${(error as Error).message}`, "invalid");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const checked = webhookFileSchema.safeParse(parsed);
  if (!checked.success) {
    throw new WebhookFileError(
      `${path} is not {"port": <number>, "token": "<string>"}: restart svc to rewrite it`,
      "invalid",
    );
  }
  return checked.data;
}
