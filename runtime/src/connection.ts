/**
 * A JSON-RPC 2.0 connection over framed lines: ids, dispatch, and pending requests both ways.
 * It knows nothing of svc's methods beyond the declarations handed to it.
 *
 * Bad input never throws out of here: a line that is not JSON is answered -32700, a message that
 * is not a JSON-RPC request -32600, an unknown method -32601, params that fail the schema -32602
 * (naming the path), an oversized line -32009. A response to an id we never sent is noted on the
 * diagnostics channel and ignored.
 */
import type { z } from "zod";
import type { Frame, NdjsonReader } from "./framing.js";
import { ErrorCodes, ResponseError, type ResponseErrorObject } from "./protocol/errors.js";
import type { NotificationType, RequestType } from "./protocol/define.js";

type Id = string | number;

/** Where outgoing messages go: an `NdjsonWriter`, or an array in a test. */
export interface MessageSink {
  write(message: unknown): void;
}

export type RequestHandler<P, R> = (params: P) => R | Promise<R>;
export type NotificationHandler<P> = (params: P) => void;

export interface ConnectionOptions {
  /** Free-form diagnostics (stderr in svc-runtime). */
  note?: (message: string) => void;
  /** Runs before every incoming request's handler; throw a `ResponseError` to refuse it. */
  beforeRequest?: (method: string) => void;
  /** Longest line the framing accepts, only used to word the MessageTooLarge error. */
  maxLineBytes?: number;
}

export interface SendOptions {
  /** Reject with a Timeout `ResponseError` when no answer came within this many ms. */
  timeoutMs?: number;
}

interface Pending {
  method: string;
  result: z.ZodType<unknown>;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

/** Short text of a zod failure: `"trigger.type" should be one of …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `"${path}" ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * A request's params as they are sent: checked against its declaration (unknown keys dropped).
 * Throws the `InvalidParams` error `sendRequest` rejects with; the test kit's in-process fake
 * app checks with it too, so both refuse alike.
 */
export function checkedParams<P>(type: RequestType<P, unknown>, params: P): P {
  const parsed = type.params.safeParse(params);
  if (!parsed.success)
    throw new ResponseError(ErrorCodes.InvalidParams, `${type.method}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** An answer checked against its request's declared result; throws when it does not fit. */
export function checkedResult<R>(type: Pick<RequestType<unknown, R>, "method" | "result">, result: unknown): R {
  const parsed = type.result.safeParse(result);
  if (!parsed.success)
    throw new Error(`${type.method} answered with an invalid result: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Either side of the pipe.
 *
 * @example
 * const connection = new Connection(new NdjsonWriter(process.stdout), { note: (m) => console.error(m) });
 * connection.onRequest(Shutdown, async () => ({}));
 * connection.listen(new NdjsonReader(process.stdin));
 * const { value } = await connection.sendRequest(HostSecretsGet, { extensionId, name: "apiKey" });
 */
export class Connection {
  private readonly requestHandlers = new Map<
    string,
    { type: RequestType<unknown, unknown>; handler: RequestHandler<unknown, unknown> }
  >();
  private readonly notificationHandlers = new Map<
    string,
    { type: NotificationType<unknown>; handler: NotificationHandler<unknown> }
  >();
  private readonly pending = new Map<Id, Pending>();
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly sink: MessageSink,
    private readonly options: ConnectionOptions = {},
  ) {}

  onRequest<P, R>(type: RequestType<P, R>, handler: RequestHandler<P, R>): void {
    this.requestHandlers.set(type.method, {
      type: type as RequestType<unknown, unknown>,
      handler: handler as RequestHandler<unknown, unknown>,
    });
  }

  onNotification<P>(type: NotificationType<P>, handler: NotificationHandler<P>): void {
    this.notificationHandlers.set(type.method, {
      type: type as NotificationType<unknown>,
      handler: handler as NotificationHandler<unknown>,
    });
  }

  /** Sends a notification; params are checked against the declaration first (a failure is our bug, noted, not sent). */
  sendNotification<P>(type: NotificationType<P>, params: P): void {
    const parsed = type.params.safeParse(params);
    if (!parsed.success) {
      this.note(`not sending ${type.method}: ${describeIssues(parsed.error)}`);
      return;
    }
    this.send({ jsonrpc: "2.0", method: type.method, params: parsed.data });
  }

  /** Sends a request and resolves with its checked result; rejects with a `ResponseError` on an error answer. */
  sendRequest<P, R>(type: RequestType<P, R>, params: P, options: SendOptions = {}): Promise<R> {
    if (this.disposed) return Promise.reject(new Error(`cannot send ${type.method}: the connection is closed`));
    let checked: P;
    try {
      checked = checkedParams(type, params);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = {
        method: type.method,
        result: type.result as z.ZodType<unknown>,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (options.timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new ResponseError(ErrorCodes.Timeout, `${type.method} got no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.pending.set(id, entry);
      this.send({ jsonrpc: "2.0", id, method: type.method, params: checked });
    });
  }

  /** Feeds every frame the reader produces into this connection. */
  listen(reader: NdjsonReader, onEnd?: () => void): void {
    reader.listen((frame) => this.handleFrame(frame), onEnd);
  }

  /** Handles one frame. Never throws. */
  handleFrame(frame: Frame): void {
    if (frame.kind === "oversized") {
      const limit = this.options.maxLineBytes;
      const words = limit === undefined ? "the maximum line length" : `${limit} bytes`;
      this.sendError(
        null,
        ErrorCodes.MessageTooLarge,
        `line of ${frame.bytes} bytes discarded: a message may be at most ${words}`,
      );
      return;
    }
    if (frame.kind === "not-utf8") {
      this.sendError(null, ErrorCodes.ParseError, `line of ${frame.bytes} bytes discarded: it is not valid UTF-8`);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(frame.text);
    } catch (error) {
      this.sendError(null, ErrorCodes.ParseError, `line is not JSON: ${(error as Error).message.slice(0, 200)}`);
      return;
    }
    this.handleMessage(message);
  }

  /** Rejects every request still waiting for an answer. */
  dispose(reason = "the connection closed"): void {
    this.disposed = true;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      this.pending.delete(id);
      entry.reject(new Error(`${entry.method}: ${reason}`));
    }
  }

  private handleMessage(message: unknown): void {
    if (Array.isArray(message)) {
      this.sendError(null, ErrorCodes.InvalidRequest, "batches are not supported: send one JSON-RPC object per line");
      return;
    }
    if (typeof message !== "object" || message === null) {
      this.sendError(null, ErrorCodes.InvalidRequest, "a message must be a JSON-RPC 2.0 object");
      return;
    }
    const record = message as Record<string, unknown>;
    const hasId = Object.hasOwn(record, "id");
    const id = record.id;
    const idIsValid = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
    const replyId: Id | null = idIsValid ? (id as Id) : null;
    if (record.jsonrpc !== "2.0") {
      this.sendError(replyId, ErrorCodes.InvalidRequest, 'a message must carry "jsonrpc": "2.0"');
      return;
    }
    if (hasId && !idIsValid && id !== null) {
      this.sendError(null, ErrorCodes.InvalidRequest, '"id" must be a string or a number');
      return;
    }
    if (Object.hasOwn(record, "method")) {
      if (typeof record.method !== "string") {
        this.sendError(replyId, ErrorCodes.InvalidRequest, '"method" must be a string');
        return;
      }
      if (hasId) void this.handleRequest(replyId, record.method, record.params);
      else this.handleNotification(record.method, record.params);
      return;
    }
    if (Object.hasOwn(record, "result") || Object.hasOwn(record, "error")) {
      this.handleResponse(replyId, record);
      return;
    }
    this.sendError(replyId, ErrorCodes.InvalidRequest, 'a message must have "method", or "result" or "error"');
  }

  private async handleRequest(id: Id | null, method: string, rawParams: unknown): Promise<void> {
    try {
      this.options.beforeRequest?.(method);
      const entry = this.requestHandlers.get(method);
      if (!entry) throw new ResponseError(ErrorCodes.MethodNotFound, `unknown method "${method.slice(0, 100)}"`);
      const params = this.checkParams(entry.type, rawParams);
      const result = await entry.handler(params);
      this.send({ jsonrpc: "2.0", id, result: result ?? null });
    } catch (error) {
      if (error instanceof ResponseError) {
        this.send({ jsonrpc: "2.0", id, error: error.toJSON() });
        return;
      }
      this.note(`internal error in ${method}: ${(error as Error)?.stack ?? String(error)}`);
      this.sendError(id, ErrorCodes.InternalError, `internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private handleNotification(method: string, rawParams: unknown): void {
    const entry = this.notificationHandlers.get(method);
    if (!entry) {
      this.note(`ignored notification "${method.slice(0, 100)}": nothing handles it`);
      return;
    }
    try {
      entry.handler(this.checkParams(entry.type, rawParams));
    } catch (error) {
      this.note(`notification ${method} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private checkParams(type: { method: string; params: z.ZodType<unknown> }, rawParams: unknown): unknown {
    if (rawParams !== undefined && (typeof rawParams !== "object" || rawParams === null || Array.isArray(rawParams))) {
      throw new ResponseError(ErrorCodes.InvalidParams, `invalid params for ${type.method}: params must be an object`);
    }
    const parsed = type.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `invalid params for ${type.method}: ${describeIssues(parsed.error)}`,
      );
    }
    return parsed.data;
  }

  private handleResponse(id: Id | null, record: Record<string, unknown>): void {
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry || id === null) {
      this.note(`ignored a response to unknown id ${JSON.stringify(id)}`);
      return;
    }
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (Object.hasOwn(record, "error")) {
      const error = record.error as Partial<ResponseErrorObject> | null;
      const code = typeof error?.code === "number" ? error.code : ErrorCodes.InternalError;
      const message = typeof error?.message === "string" ? error.message : "the other side answered with an error";
      entry.reject(new ResponseError(code, message, error?.data));
      return;
    }
    let result: unknown;
    try {
      result = checkedResult(entry, record.result);
    } catch (error) {
      entry.reject(error as Error);
      return;
    }
    entry.resolve(result);
  }

  private sendError(id: Id | null, code: number, message: string): void {
    this.send({ jsonrpc: "2.0", id, error: { code, message } });
  }

  private send(message: unknown): void {
    try {
      this.sink.write(message);
    } catch (error) {
      this.note(`could not write a message: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private note(message: string): void {
    this.options.note?.(message);
  }
}
