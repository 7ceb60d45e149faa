/**
 * OAuth sign-in for extensions (SPEC.md "OAuth provider definition", "OAuth connection",
 * `host.oauth.*`): authorization code with PKCE for public clients, the loopback redirect
 * `http://127.0.0.1:47812/oauth/callback`, tokens in the secret store under `oauth.<provider>`.
 *
 * @example
 * const oauth = new OAuthService({ secrets, manifestOf, openURL, notify, onConnectionsChanged });
 * const services = { ...oauthHandlers(oauth) };
 */
export {
  OAuthService,
  RENEW_BEFORE_MS,
  type OAuthServiceOptions,
  type OAuthTarget,
  type SignInPage,
  type ShownDeviceCode,
} from "./oauth-service.js";
export { oauthHandlers, type OAuthHandlers } from "./handlers.js";
export { OAuthRuleError, resolveProvider, type ResolvedProvider } from "./provider.js";
export { OAUTH_CALLBACK_PORT, redirectUriFor, SignInPortTakenError } from "./callback-server.js";
export { SignInError } from "./sign-in.js";
export { RenewalError } from "./token-requests.js";
export { toRecord, type StoredConnection } from "./connection-vault.js";
