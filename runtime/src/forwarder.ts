/**
 * The runtime's side of the bridge: every `ForwardedOp` a guest's `ctx` makes arrives here. Blip
 * ops go to the blip side, `respond` and `log` become notifications, and the rest become `host.*`
 * requests with `extensionId` stamped from the sandbox's own id, whatever the guest sent.
 */
import { z } from "zod";
import type { ForwardedOp, OpResult } from "@svc/sandbox";
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
  type ParamsOf,
  type RequestType,
  type ResultOf,
} from "./protocol/index.js";
import type { ReplyBook } from "./replies.js";
export { checkEndArgs, checkRemoveArgs } from "./blips.js";

const RespondArgs = z.object({
  replyId: z.string().min(1),
  body: z.unknown(),
  status: z.number().int().min(100).max(599).optional(),
});
const LogArgs = z.object({ level: LogLevelSchema, message: z.string() });

/**
 * `ctx.respond`'s arguments checked and its reply taken from the book (each `replyId` answers
 * once); throws the error the guest sees. The test kit's fake app answers with it too.
 */
export function takeResponse(args: unknown, replies: ReplyBook): { replyId: string; status: number; body: unknown } {
  const parsed = RespondArgs.safeParse(args);
  if (!parsed.success) throw new Error(`ctx.respond: ${describeIssues(parsed.error)}`);
  const { replyId, body, status = 200 } = parsed.data;
  if (!replies.take(replyId)) {
    throw new Error(
      `ctx.respond: no webhook request is waiting for reply "${replyId}" (each event.replyId can be answered once)`,
    );
  }
  return { replyId, status, body };
}

/** A log line's arguments, checked; throws the error the guest sees. */
export function checkLogArgs(args: unknown): z.output<typeof LogArgs> {
  const parsed = LogArgs.safeParse(args);
  if (!parsed.success) throw new Error(`ctx.log: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

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
  // Object.hasOwn: a name from outside the table (`__proto__`, `constructor`) is unknown.
  if (Object.hasOwn(SERVED_HERE, op)) return SERVED_HERE[op as RuntimeOp](target, args);
  if (Object.hasOwn(HOST_REQUESTS, op)) {
    return askHost(op as HostOp, target.extensionId, args, (type, params) =>
      target.connection.sendRequest(type, params, { timeoutMs: target.hostCallTimeoutMs }),
    );
  }
  throw new Error(`unknown operation "${String(op)}"`);
}

type Serve<Op extends ForwardedOp> = (target: ForwardTarget, args: unknown) => Promise<OpResult<Op>>;

/** The forwarded ops the runtime serves itself: blips and notifications. */
const SERVED_HERE = {
  // The guest's ctx.emit(blip) sends {blip}.
  emit: async (target, args) => {
    await target.blips.emit(typeof args === "object" && args !== null ? (args as { blip?: unknown }).blip : undefined);
    return null;
  },
  end: async (target, args) => {
    await target.blips.end(args);
    return null;
  },
  remove: async (target, args) => {
    target.blips.remove(args);
    return null;
  },
  respond: async (target, args) => {
    target.connection.sendNotification(WebhookRespond, takeResponse(args, target.replies));
    return null;
  },
  log: async (target, args) => {
    // The sandbox already cut the message to its log limit.
    target.connection.sendNotification(Log, { extensionId: target.extensionId, ...checkLogArgs(args) });
    return null;
  },
} satisfies { [Op in "emit" | "end" | "remove" | "respond" | "log"]: Serve<Op> };

type RuntimeOp = keyof typeof SERVED_HERE;
/** A forwarded op the host answers: every one the runtime does not serve itself. */
export type HostOp = Exclude<ForwardedOp, RuntimeOp>;

/**
 * The `host.*` request each host op becomes. Typed over `HostOp`, so an op added to the table
 * of bridge ops (sandbox/src/bridge/op-table.ts) without a line here (or in SERVED_HERE) does
 * not compile, and each request's result must be the table's result for its op. One table, used
 * here and by the test kit's fake app (testkit/src/host-requests.ts).
 */
export const HOST_REQUESTS = {
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
} satisfies { [Op in HostOp]: RequestType<any, OpResult<Op>> };

/** The `host.*` request of one host op. */
export type HostRequestOf<Op extends HostOp> = (typeof HOST_REQUESTS)[Op];

/**
 * What answers the host ops: one handler per op of {@link HOST_REQUESTS}, taking the request's
 * params and giving its result. svc-host's services are typed by it (host/src/supervisor/
 * host-requests.ts), so a host op the host does not answer does not compile.
 */
export type HostAnswers = {
  [Op in HostOp]: (
    params: ParamsOf<HostRequestOf<Op>>,
  ) => ResultOf<HostRequestOf<Op>> | Promise<ResultOf<HostRequestOf<Op>>>;
};

/** Handlers of some host ops that always answer with a promise (the secret store, OAuth: `answering`). */
export type AsyncHostAnswers<Ops extends HostOp> = {
  [Op in Ops]: (params: ParamsOf<HostRequestOf<Op>>) => Promise<ResultOf<HostRequestOf<Op>>>;
};

/**
 * Asks the host one host op as the runtime does: the op's arguments with `extensionId` stamped
 * from the sandbox's own id (last, so a guest-sent one is overwritten), handed to `send` (the
 * pipe, whose `sendRequest` checks params and result; the test kit's in-process fake app checks
 * with the same `checkedParams`/`checkedResult`), and a refusal worded for the extension's author.
 * The result is passed on as the host answered: the guest's ctx turns it into what the SDK promises.
 *
 * @example await askHost("secrets.get", "com.example.ci", { name: "apiKey" }, (type, params) => connection.sendRequest(type, params));
 */
export async function askHost(
  op: HostOp,
  extensionId: string,
  args: unknown,
  send: (type: RequestType<any, unknown>, params: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown> {
  const fields = typeof args === "object" && args !== null && !Array.isArray(args) ? args : {};
  try {
    return await send(HOST_REQUESTS[op], { ...fields, extensionId });
  } catch (error) {
    if (error instanceof ResponseError && error.code === ErrorCodes.InvalidParams) {
      throw new Error(error.message.replace(/^host\./, "ctx."));
    }
    throw new Error((error as Error).message);
  }
}
