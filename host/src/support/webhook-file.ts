/**
 * `webhook.json`: how local clients (svc-hook, `svckit send`, scripts) find the HTTP server.
 * `{port, token}`, file mode 0600, rewritten with a new token at every launch, so clients read
 * it on every run instead of caching the token (SPEC.md "Authentication" 2). This side writes it.
 */
import { randomBytes } from "node:crypto";
import { unlink } from "node:fs/promises";
import { readWebhookFile, type WebhookInfo } from "@svc/runtime";
import { writeFileAtomic } from "./atomic-file.js";

// The one reader lives with the one client (@svc/runtime's app-client.ts); the host writes the file.
export { readWebhookFile, WebhookFileError, type WebhookInfo } from "@svc/runtime";

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
