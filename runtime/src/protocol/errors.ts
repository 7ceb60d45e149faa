/**
 * Wire errors are data: a code from the one table below, a message for a person, and optional
 * data. Local failures (a write to a closed pipe, a host result of the wrong shape) are ordinary
 * `Error`s and never cross the pipe as such.
 */

/**
 * Every JSON-RPC error code svc uses. The first five are JSON-RPC 2.0's own; ours sit in the
 * range JSON-RPC reserves for implementations (-32000 to -32099).
 *
 * | code   | name                       | when |
 * |--------|----------------------------|------|
 * | -32700 | ParseError                 | a line that is not JSON (or not UTF-8) |
 * | -32600 | InvalidRequest             | JSON that is not a JSON-RPC 2.0 request, a batch, a second `initialize` |
 * | -32601 | MethodNotFound             | a method this side does not serve |
 * | -32602 | InvalidParams              | params that fail the method's schema; the message names the path |
 * | -32603 | InternalError              | a bug on the answering side |
 * | -32000 | HostCallFailed             | the host could not do a `host.*` call (no secret store, no network, sign-in port taken) |
 * | -32001 | UnknownExtension           | no `extension.load` for this id (or it was unloaded) |
 * | -32002 | ExtensionNotLoaded         | its code could not be loaded, or it was unloaded/reloaded mid-request |
 * | -32003 | Timeout                    | the extension did not settle in time |
 * | -32004 | Crashed                    | the extension's sandbox crashed and is not restarted now |
 * | -32005 | UnsupportedProtocolVersion | `initialize` asked for a version this runtime does not speak |
 * | -32006 | ToolFailed                 | a tool threw, or returned something the app can't show |
 * | -32007 | UnknownTool                | the extension has no valid tool (or drop action) by that name |
 * | -32008 | NotInitialized             | a request other than `initialize`/`shutdown` before `initialize` |
 * | -32009 | MessageTooLarge            | a line over the maximum line length; it was discarded |
 * | -32010 | ShuttingDown               | a request after `shutdown` |
 * | -32011 | ExtensionFailed            | `update()`, `onEvent()` or `onAction()` threw; the message is the error's |
 */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HostCallFailed: -32000,
  UnknownExtension: -32001,
  ExtensionNotLoaded: -32002,
  Timeout: -32003,
  Crashed: -32004,
  UnsupportedProtocolVersion: -32005,
  ToolFailed: -32006,
  UnknownTool: -32007,
  NotInitialized: -32008,
  MessageTooLarge: -32009,
  ShuttingDown: -32010,
  ExtensionFailed: -32011,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** The `error` member of a JSON-RPC response. */
export interface ResponseErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error that crosses the pipe. Throw it from a request handler to answer with that code;
 * `sendRequest` rejects with it when the other side answers with an error.
 *
 * @example
 * throw new ResponseError(ErrorCodes.UnknownExtension, `no extension "x.y" is loaded`);
 */
export class ResponseError extends Error {
  override readonly name = "ResponseError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The plain object sent on the wire. */
  toJSON(): ResponseErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
