/**
 * The one error class callers of a sandbox see. `code` says what happened; the message is for a
 * person. Errors cross threads as `{code, message}` records and are rebuilt on the other side.
 */

export type SandboxErrorCode =
  /** The extension's own code threw; the message is its error's message (never its stack). */
  | "guest"
  /** Guest code ran past the slice limit and was stopped. */
  | "interrupted"
  /** The sandbox is gone (out of memory, a trap, a stuck native call, a neighbour's crash). */
  | "crashed"
  /** `dispose()` was called. */
  | "disposed"
  /** The caller's AbortSignal fired. */
  | "aborted";

/**
 * @example
 * try { await sandbox.invoke({ kind: "update", ctx }) }
 * catch (e) { if (e instanceof SandboxError && e.code === "guest") log(e.message) }
 */
export class SandboxError extends Error {
  override readonly name = "SandboxError";

  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    /** For `guest`: the guest error's own stack (frames in `dist/index.js`), for the author's log. */
    readonly guestStack?: string,
  ) {
    super(message);
  }

  toRecord(): { code: SandboxErrorCode; message: string; guestStack?: string } {
    return { code: this.code, message: this.message, ...(this.guestStack ? { guestStack: this.guestStack } : {}) };
  }

  static fromRecord(record: { code: SandboxErrorCode; message: string; guestStack?: string }): SandboxError {
    return new SandboxError(
      record.code,
      record.message,
      typeof record.guestStack === "string" ? record.guestStack : undefined,
    );
  }
}

/** The message of a slice that ran past its limit. */
export function interruptedMessage(sliceMs: number): string {
  return `interrupted: the extension's code ran for more than ${sliceMs} ms without pausing`;
}
