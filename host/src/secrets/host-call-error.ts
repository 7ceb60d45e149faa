/**
 * How the trust pieces (secrets, preferences, OAuth) answer a `host.*` request that fails: a
 * wire error with a message for a person. A broken rule (bad name, value too big, an option the
 * extension does not declare) is InvalidParams; anything else the host could not do (no secret
 * store, no network, the sign-in port taken) uses `HOST_CALL_FAILED`.
 */
import { ErrorCodes, ResponseError } from "@svc/runtime";

/** "The host could not do it": the protocol table's HostCallFailed. */
export const HOST_CALL_FAILED = ErrorCodes.HostCallFailed;

/** A refusal because the caller broke a rule; answered as InvalidParams. */
export class HostRuleError extends Error {
  override readonly name: string = "HostRuleError";
}

/**
 * Wraps a handler so every failure crosses the pipe as a `ResponseError` with a clean message
 * (never "internal error: …" and never a stack).
 *
 * @example
 * const get = answering(async (p) => ({ value: await secrets.get(p.extensionId, "secret", p.name) }));
 */
export function answering<P, R>(handler: (params: P) => Promise<R>): (params: P) => Promise<R> {
  return async function answer(params: P): Promise<R> {
    try {
      return await handler(params);
    } catch (error) {
      throw toResponseError(error);
    }
  };
}

/** The wire form of a failure: `HostRuleError`s (and subclasses) are InvalidParams. */
export function toResponseError(error: unknown): ResponseError {
  if (error instanceof ResponseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(error instanceof HostRuleError ? ErrorCodes.InvalidParams : HOST_CALL_FAILED, message);
}
