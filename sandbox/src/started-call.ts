/**
 * `invoke(invocation, { signal })` on top of `start`, for both kinds of SandboxHandle: the
 * signal's listener lives only as long as the call.
 */
import type { StartedCall } from "./types.js";

/** The words an aborted call rejects with: the signal's reason when it is an Error. */
export function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : "the call was aborted";
}

/** The call's result; aborting `signal` aborts the call. */
export function untilAborted(call: StartedCall, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) return call.result;
  const onAbort = () => call.abort(abortReason(signal));
  signal.addEventListener("abort", onAbort, { once: true });
  return call.result.finally(() => signal.removeEventListener("abort", onAbort));
}
