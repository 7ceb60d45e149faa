/**
 * One sign-in, from the authorize address to tokens: authorization code with PKCE (S256) and a
 * random `state`, as a public client, with the fixed loopback redirect (SPEC.md "OAuth").
 */
import * as oauth from "oauth4webapi";
import type { ProviderClient, ResolvedProvider } from "./provider.js";

/** A sign-in waiting for the browser to come back. */
export interface PendingSignIn {
  extensionId: string;
  provider: ResolvedProvider;
  client: ProviderClient;
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The address the person opens (reopened as is when the extension connects again). */
  url: string;
  /** Scopes asked for, kept with the connection when the service does not list them back. */
  scopes: string[];
}

/** The tokens of a finished sign-in or renewal. */
export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; absent when the service gave no `expires_in`. */
  expiresAt?: number;
  scopes?: string[];
}

/** A sign-in the service or the person refused, with words for the person. */
export class SignInError extends Error {
  override readonly name = "SignInError";
}

/** Options for oauth4webapi calls: allow plain http only for loopback test servers. */
export function requestOptions(client: ProviderClient): { [oauth.allowInsecureRequests]?: boolean } {
  return client.insecure ? { [oauth.allowInsecureRequests]: true } : {};
}

/**
 * Starts a sign-in: makes the PKCE verifier and `state`, and the authorize address.
 *
 * @example
 * const pending = await beginSignIn("com.example.ci", provider, client, "http://127.0.0.1:47812/oauth/callback");
 * openURL(pending.url);
 */
export async function beginSignIn(
  extensionId: string,
  provider: ResolvedProvider,
  client: ProviderClient,
  redirectUri: string,
): Promise<PendingSignIn> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const scopes = provider.definition.scopes ?? [];
  const url = new URL(client.authorizeUrl!); // there for every pkce provider (providerClient)
  // The manifest's own params first, so none of ours can be overridden by them.
  for (const [key, value] of Object.entries(provider.definition.params ?? {})) url.searchParams.set(key, value);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (scopes.length) url.searchParams.set("scope", scopes.join(provider.definition.scopeSeparator ?? " "));
  return { extensionId, provider, client, state, codeVerifier, redirectUri, url: url.href, scopes };
}

/** Scopes as the token response lists them (split on spaces, commas or the provider's separator). */
function grantedScopes(scope: unknown, separator: string | undefined): string[] | undefined {
  if (typeof scope !== "string" || scope === "") return undefined;
  const pattern =
    separator && separator !== " " ? new RegExp(`[\\s${separator.replace(/[\\\]^-]/g, "\\$&")}]+`) : /[\s,]+/;
  return scope.split(pattern).filter(Boolean);
}

/** Tokens from a checked token response. */
export function tokensFrom(response: oauth.TokenEndpointResponse, now: number, separator?: string): Tokens {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: typeof response.expires_in === "number" ? now + response.expires_in * 1000 : undefined,
    scopes: grantedScopes(response.scope, separator),
  };
}

/**
 * Checks the browser's return (state, an error from the service, the issuer) and trades the
 * code for tokens.
 */
export async function finishSignIn(
  pending: PendingSignIn,
  params: URLSearchParams,
  now: () => number,
): Promise<Tokens> {
  const { as, client } = pending.client; // client: the oauth4webapi Client
  const authorizeUrl = pending.client.authorizeUrl!; // there for every pkce provider (providerClient)
  const title = pending.provider.title;
  const error = params.get("error");
  if (error) {
    const description = params.get("error_description");
    const why = error === "access_denied" ? "access was not granted" : error;
    throw new SignInError(`${title} sign-in did not finish: ${why}${description ? ` (${description})` : ""}`);
  }
  // A manifest gives no issuer. When the service names one (RFC 9207), it must at least be
  // the authorize address's own origin: a callback carrying another service's name is refused.
  const iss = params.get("iss");
  if (iss !== null && (!URL.canParse(iss) || new URL(iss).origin !== authorizeUrl.origin)) {
    throw new SignInError(`${title} sign-in was refused: the answer came from ${iss}, not ${authorizeUrl.origin}`);
  }
  const server = { ...as, issuer: iss ?? as.issuer };
  let checked: URLSearchParams;
  try {
    checked = oauth.validateAuthResponse(server, client, params, pending.state);
  } catch (cause) {
    throw new SignInError(`${title} sign-in was refused: ${(cause as Error).message}`, { cause });
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      oauth.None(),
      checked,
      pending.redirectUri,
      pending.codeVerifier,
      requestOptions(pending.client),
    );
    const body = await oauth.processAuthorizationCodeResponse(server, client, response);
    return tokensFrom(body, now(), pending.provider.definition.scopeSeparator);
  } catch (cause) {
    const detail =
      cause instanceof oauth.ResponseBodyError
        ? `${cause.error}${cause.error_description ? ` (${cause.error_description})` : ""}`
        : (cause as Error).message;
    throw new SignInError(`${title} sign-in failed while fetching the tokens: ${detail}`, { cause });
  }
}
