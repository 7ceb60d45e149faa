/**
 * The runtime's side of the bridge: every `ForwardedOp` a guest's `ctx` makes arrives here. Blip
 * ops go to the blip side, `respond` and `log` become notifications, and the rest become `host.*`
 * requests with `extensionId` stamped from the sandbox's own id, whatever the guest sent.
 */
import { z } from "zod";
import type { ForwardedOp } from "@svc/sandbox";
import type { BlipSide } from "./blips.js";
import { describeIssues, type Connection } from "./connection.js";
import {
  ErrorCodes,
  HostNotify,
  HostOAuthConnect,
  HostOAuthConnections,
  HostOAuthDescribe,
  HostOAuthDisconnect,
  HostOAuthInvalidate,
  HostOAuthToken,
  HostOpenURL,
  HostPreferencesSet,
  HostSecretsDelete,
  HostSecretsGet,
  HostSecretsSet,
  HostWorkingHours,
  Log,
  LogLevelSchema,
  ResponseError,
  WebhookRespond,
  type RequestType,
} from "./protocol/index.js";
import type { ReplyBook } from "./replies.js";

const HOST_REQUESTS: Partial<Record<ForwardedOp, RequestType<any, unknown>>> = {
  openURL: HostOpenURL,
  notify: HostNotify,
  "secrets.get": HostSecretsGet,
  "secrets.set": HostSecretsSet,
  "secrets.delete": HostSecretsDelete,
  "preferences.set": HostPreferencesSet,
  "oauth.connect": HostOAuthConnect,
  "oauth.connections": HostOAuthConnections,
  "oauth.token": HostOAuthToken,
  "oauth.describe": HostOAuthDescribe,
  "oauth.invalidate": HostOAuthInvalidate,
  "oauth.disconnect": HostOAuthDisconnect,
  workingHours: HostWorkingHours,
};

const RespondArgs = z.object({
  replyId: z.string().min(1),
  body: z.unknown(),
  status: z.number().int().min(100).max(599).optional(),
});
const LogArgs = z.object({ level: LogLevelSchema, message: z.string() });

export interface ForwardTarget {
  extensionId: string;
  connection: Connection;
  blips: BlipSide;
  replies: ReplyBook;
  hostCallTimeoutMs: number;
}

/**
 * Serves one forwarded op for the extension `target.extensionId`. Rejections carry a message for
 * the extension's author; the guest sees it as a thrown `Error`.
 *
 * @example
 * await forward(target, "secrets.get", { name: "apiKey" }); // {value: "…"} or {value: null}
 */
export async function forward(target: ForwardTarget, op: ForwardedOp, args: unknown): Promise<unknown> {
  const { extensionId, connection } = target;
  switch (op) {
    case "emit":
      // The guest's ctx.emit(blip) sends {blip}.
      await target.blips.emit(typeof args === "object" && args !== null ? (args as { blip?: unknown }).blip : undefined);
      return null;
    case "end":
      await target.blips.end(args);
      return null;
    case "remove":
      target.blips.remove(args);
      return null;
    case "respond": {
      const parsed = RespondArgs.safeParse(args);
      if (!parsed.success) throw new Error(`ctx.respond: ${describeIssues(parsed.error)}`);
      const { replyId, body, status = 200 } = parsed.data;
      if (!target.replies.take(replyId)) {
        throw new Error(`ctx.respond: no webhook request is waiting for reply "${replyId}" (each event.replyId can be answered once)`);
      }
      connection.sendNotification(WebhookRespond, { replyId, status, body });
      return null;
    }
    case "log": {
      const parsed = LogArgs.safeParse(args);
      if (!parsed.success) throw new Error(`ctx.log: ${describeIssues(parsed.error)}`);
      // The sandbox already cut the message to its log limit.
      connection.sendNotification(Log, { extensionId, level: parsed.data.level, message: parsed.data.message });
      return null;
    }
    default:
      return requestHost(target, op, args);
  }
}

async function requestHost(target: ForwardTarget, op: ForwardedOp, args: unknown): Promise<unknown> {
  const type = HOST_REQUESTS[op];
  if (!type) throw new Error(`unknown operation "${String(op)}"`);
  const fields = typeof args === "object" && args !== null && !Array.isArray(args) ? args : {};
  let result: unknown;
  try {
    // Stamp last, so a guest-sent extensionId is overwritten.
    result = await target.connection.sendRequest(type, { ...fields, extensionId: target.extensionId }, {
      timeoutMs: target.hostCallTimeoutMs,
    });
  } catch (error) {
    if (error instanceof ResponseError && error.code === ErrorCodes.InvalidParams) {
      throw new Error(error.message.replace(/^host\./, "ctx."));
    }
    throw new Error((error as Error).message);
  }
  // Passed on as the host answered: the guest's ctx turns it into what the SDK promises.
  return result;
}
