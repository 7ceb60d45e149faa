/**
 * The two token-endpoint calls after a sign-in: renewing with the refresh token, and revoking
 * at the service on disconnect (RFC 7009). Failures are told apart because they lead to
 * different answers: a service that says no means "sign in again"; a service that cannot be
 * reached means "try later".
 */
import * as oauth from "oauth4webapi";
import type { ProviderClient, ResolvedProvider } from "./provider.js";
import { requestOptions, tokensFrom, type Tokens } from "./sign-in.js";

/** A renewal that did not happen; `refused` when the service answered no (sign in again). */
export class RenewalError extends Error {
  override readonly name = "RenewalError";
  constructor(
    message: string,
    readonly refused: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Trades a refresh token for new tokens. A service that rotates refresh tokens returns a new
 * one; otherwise the old one stays in use.
 *
 * @example
 * const tokens = await renewTokens(provider, client, stored.refreshToken, Date.now());
 */
export async function renewTokens(
  provider: ResolvedProvider,
  client: ProviderClient,
  refreshToken: string,
  now: () => number,
): Promise<Tokens> {
  let response: Response;
  try {
    response = await oauth.refreshTokenGrantRequest(
      client.as,
      client.client,
      oauth.None(),
      refreshToken,
      requestOptions(client),
    );
  } catch (cause) {
    // fetch itself failed: no network, DNS, refused connection, TLS.
    throw new RenewalError(
      `could not renew the ${provider.title} sign-in: ${provider.title} could not be reached (${networkReason(cause)})`,
      false,
      { cause },
    );
  }
  try {
    const body = await oauth.processRefreshTokenResponse(client.as, client.client, response);
    const tokens = tokensFrom(body, now(), provider.definition.scopeSeparator);
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  } catch (cause) {
    if (cause instanceof oauth.ResponseBodyError && cause.status >= 400 && cause.status < 500) {
      throw new RenewalError(`${provider.title} refused to renew the sign-in: ${cause.error}`, true, { cause });
    }
    throw new RenewalError(`could not renew the ${provider.title} sign-in: ${(cause as Error).message}`, false, {
      cause,
    });
  }
}

function networkReason(cause: unknown): string {
  const inner = (cause as { cause?: { code?: string; message?: string } })?.cause;
  return inner?.code ?? inner?.message ?? (cause as Error)?.message ?? String(cause);
}

/**
 * Revokes a token at the service, best effort: resolves `false` instead of throwing when the
 * service is unreachable or says no, since the connection is forgotten either way.
 *
 * @example
 * await revokeBestEffort(client, stored.refreshToken ?? stored.accessToken, "refresh_token");
 */
export async function revokeBestEffort(
  client: ProviderClient,
  token: string,
  hint: "refresh_token" | "access_token",
): Promise<boolean> {
  if (!client.as.revocation_endpoint) return false;
  try {
    const response = await oauth.revocationRequest(client.as, client.client, oauth.None(), token, {
      ...requestOptions(client),
      additionalParameters: { token_type_hint: hint },
      signal: AbortSignal.timeout(10_000),
    });
    await oauth.processRevocationResponse(response);
    return true;
  } catch {
    return false;
  }
}
