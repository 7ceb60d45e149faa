/**
 * Webhook requests held open by `?await=<seconds>` (SPEC.md "Held webhook request"): each one
 * ends exactly once — with the extension's `webhook.respond`, with 204 when the wait runs out,
 * with an error when delivery failed or the server closes — or is forgotten when the client
 * hangs up.
 */
import { randomUUID } from "node:crypto";
import type { Response } from "express";
import { sendError } from "../support/http/index.js";

/** `webhook.respond` params: the extension's answer to a held request. */
export interface WebhookReply {
  replyId: string;
  status: number;
  body: unknown;
}

interface Held {
  res: Response;
  timer: NodeJS.Timeout;
}

/**
 * @example
 * const replyId = held.hold(res, 30);      // 204 after 30 s unless…
 * held.respond({ replyId, status: 200, body: { ok: true } });
 */
export class HeldReplies {
  private readonly held = new Map<string, Held>();

  /** How many requests are waiting. */
  get size(): number {
    return this.held.size;
  }

  /** Holds `res` for at most `seconds`; returns the replyId the extension answers with. */
  hold(res: Response, seconds: number): string {
    const replyId = randomUUID();
    const timer = setTimeout(() => {
      if (this.take(replyId)) res.status(204).end();
    }, seconds * 1000);
    this.held.set(replyId, { res, timer });
    // A client that gives up frees its slot; a later answer then finds nothing.
    res.on("close", () => this.take(replyId));
    return replyId;
  }

  /**
   * Completes a held request with the extension's status and body (JSON; none for 204 and
   * 304, or when the body is undefined). False when nothing waits under that replyId.
   */
  respond(reply: WebhookReply): boolean {
    const held = this.take(reply.replyId);
    if (!held) return false;
    const { res } = held;
    if (!Number.isInteger(reply.status) || reply.status < 200 || reply.status > 599) {
      sendError(res, 502, `the extension answered with status ${String(reply.status)}; use 200–599`);
    } else if (reply.status === 204 || reply.status === 304 || reply.body === undefined) {
      res.status(reply.status).end();
    } else {
      res.status(reply.status).json(reply.body);
    }
    return true;
  }

  /** Ends one held request with an error. False when nothing waits under that replyId. */
  fail(replyId: string, status: number, message: string): boolean {
    const held = this.take(replyId);
    if (held) sendError(held.res, status, message);
    return held !== undefined;
  }

  /** Ends every held request with an error (server closing). */
  failAll(status: number, message: string): void {
    for (const replyId of [...this.held.keys()]) this.fail(replyId, status, message);
  }

  private take(replyId: string): Held | undefined {
    const held = this.held.get(replyId);
    if (!held) return undefined;
    clearTimeout(held.timer);
    this.held.delete(replyId);
    return held;
  }
}
