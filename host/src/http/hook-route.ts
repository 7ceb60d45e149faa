/**
 * `POST /v1/hooks/<extension-id>`: hands any JSON body to the extension as a `webhook` event,
 * through a {@link HookTarget} the host implements (it sends `extension.event`). Without
 * `?await` the answer is 202 `{"ok": true}` at once; with `?await=<seconds>` (integer 0–600)
 * the request is held until the extension responds or the wait runs out (204).
 */
import type { Request, Response } from "express";
import { HttpError, sendError } from "../support/http/index.js";
import type { HeldReplies } from "./held-replies.js";

/** The longest `?await`, in seconds (SPEC.md Limits). */
export const MAX_AWAIT_SECONDS = 600;

/** One webhook event on its way to an extension. */
export interface HookDelivery {
  extensionId: string;
  /** The request body, any JSON. */
  body: unknown;
  /** When the request arrived, ISO 8601 (`2026-01-01T09:00:00.000Z`), as `@svc/api`'s `WebhookEvent` says. */
  receivedAt: string;
  /** Present when the client waits (`?await`); the extension answers with `webhook.respond`. */
  replyId?: string;
}

/**
 * What the HTTP server needs from the host to deliver webhooks.
 *
 * @example
 * const hooks: HookTarget = {
 *   status: (id) => !extensions.has(id) ? "unknown" : extensions.get(id).triggers?.webhook ? "ok" : "no-webhook",
 *   deliver: ({ extensionId, body, receivedAt, replyId }) =>
 *     connection.sendRequest(ExtensionEvent, { id: extensionId, event: { type: "webhook", body, receivedAt }, replyId }),
 * };
 */
export interface HookTarget {
  /** `ok`: deliver; `unknown`: no such extension (404); `no-webhook`: no `triggers.webhook` (403). */
  status(extensionId: string): "ok" | "unknown" | "no-webhook";
  /**
   * Sends the event. A throw, or a rejected promise while a client waits, answers 503 / 502;
   * a promise that resolves changes nothing (the extension may still respond later).
   */
  deliver(delivery: HookDelivery): void | Promise<unknown>;
}

/**
 * The `?await` query: undefined when absent, else whole seconds 0–600.
 *
 * @example
 * parseAwait(new URLSearchParams("await=30")) // 30
 */
export function parseAwait(query: URLSearchParams): number | undefined {
  const values = query.getAll("await");
  if (values.length === 0) return undefined;
  const [value] = values;
  if (values.length > 1 || !/^\d{1,4}$/.test(value) || Number(value) > MAX_AWAIT_SECONDS) {
    throw new HttpError(
      400,
      `?await should be a whole number of seconds from 0 to ${MAX_AWAIT_SECONDS}, got ${JSON.stringify(values.join("&").slice(0, 50))}`,
    );
  }
  return Number(value);
}

/** The request's query string, parsed here because the app turns express's query parser off. */
export function queryOf(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf("?");
  return new URLSearchParams(at === -1 ? "" : req.originalUrl.slice(at + 1));
}

/**
 * @example
 * app.post("/v1/hooks/:extensionId", jsonBody({ optional: false }), hookRoute(hooks, held, log));
 */
export function hookRoute(
  hooks: HookTarget,
  held: HeldReplies,
  log: (level: "warn" | "error", message: string) => void,
) {
  return function hookRoute(req: Request, res: Response): void {
    const extensionId = String(req.params.extensionId);
    const awaitSeconds = parseAwait(queryOf(req));
    const status = hooks.status(extensionId);
    if (status === "unknown") throw new HttpError(404, `no extension ${JSON.stringify(extensionId)}`);
    if (status === "no-webhook") {
      throw new HttpError(
        403,
        `${extensionId} does not take webhooks: its manifest needs "triggers": {"webhook": true}`,
      );
    }
    const delivery: HookDelivery = { extensionId, body: req.body, receivedAt: new Date().toISOString() };
    if (awaitSeconds !== undefined) delivery.replyId = held.hold(res, awaitSeconds);
    let sent: void | Promise<unknown>;
    try {
      sent = hooks.deliver(delivery);
    } catch (error) {
      const message = `could not deliver to ${extensionId}: ${(error as Error).message}`;
      if (delivery.replyId) held.fail(delivery.replyId, 503, message);
      else sendError(res, 503, message);
      return;
    }
    if (sent instanceof Promise) {
      sent.catch((error: unknown) => {
        const message = `${extensionId} could not take the event: ${(error as Error)?.message ?? String(error)}`;
        if (!delivery.replyId || !held.fail(delivery.replyId, 502, message)) log("warn", message);
      });
    }
    if (!delivery.replyId) res.status(202).json({ ok: true });
  };
}
