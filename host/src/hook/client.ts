/**
 * svc-hook's one request to the app, through the one client (@svc/runtime's app-client.ts):
 * `webhook.json` read afresh, the port's proof before the token (a squatter on a stale port gets
 * neither the token nor the payload), given up after a short timeout. Every failure becomes one
 * line in svc-hook's words.
 */
import type { V1Params, V1RouteName } from "@svc/api";
import { AppUnreachableError, callRoute } from "@svc/runtime";

/** How long svc-hook waits for the app: a hook must never hold up its caller. */
export const HOOK_TIMEOUT_MS = 2000;

export interface HookAnswer {
  status: number;
  body: unknown;
}

/** Anything that kept the request from being answered, as one line for the person. */
export class HookError extends Error {
  override name = "HookError";
}

/**
 * Sends one route of the table (sdk's `V1_ROUTES`) to the app described by `webhookFile`, through
 * the one client (@svc/runtime's app-client.ts), in svc-hook's words.
 *
 * @example
 * const answer = await callApp(paths.webhookFile, "pushBlips", {}, payload);
 * @throws HookError when the app is not running, too slow, the file is missing, or the answer is not the route's.
 */
export async function callApp<N extends V1RouteName>(
  webhookFile: string,
  name: N,
  params: V1Params<N>,
  body?: unknown,
  timeoutMs = HOOK_TIMEOUT_MS,
  query?: Record<string, string>,
): Promise<HookAnswer> {
  try {
    return await callRoute(webhookFile, name, params, { body, timeoutMs, ...(query ? { query } : {}) });
  } catch (error) {
    if (!(error instanceof AppUnreachableError)) throw new HookError((error as Error).message);
    const where = `127.0.0.1:${error.port}`;
    switch (error.reason) {
      case "not-svc":
        throw new HookError(error.message);
      case "timeout":
        throw new HookError(`svc did not answer within ${timeoutMs / 1000} s`);
      case "refused":
        throw new HookError(`svc is not running (nothing listens on ${where})`);
      case "broken":
        throw new HookError(`the answer from svc broke off: ${error.message}`);
      default:
        throw new HookError(`could not reach svc on ${where}: ${error.message}`);
    }
  }
}
