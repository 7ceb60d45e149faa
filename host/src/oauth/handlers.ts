/**
 * `host.oauth.*` (SPEC.md "Runtime to host requests") with exactly the protocol's params and
 * results, answered by an `OAuthService`.
 */
import type { AsyncHostAnswers } from "@svc/runtime";
import { answering } from "../secrets/index.js";
import type { OAuthService } from "./oauth-service.js";

/** The six handlers, the host core's `HostServices` members of the same names (the host ops). */
export type OAuthHandlers = AsyncHostAnswers<
  "oauth.connect" | "oauth.connections" | "oauth.token" | "oauth.describe" | "oauth.invalidate" | "oauth.disconnect"
>;

/**
 * @example
 * const services = { ...basicHostServices(show), ...oauthHandlers(oauth) };
 */
export function oauthHandlers(oauth: OAuthService): OAuthHandlers {
  return {
    "oauth.connect": answering((params) => oauth.connect(params)),
    "oauth.connections": answering(async (params) => ({ connections: await oauth.connections(params) })),
    "oauth.token": answering((params) => oauth.token(params)),
    "oauth.describe": answering(async (params) => ({ connection: await oauth.describe(params) })),
    "oauth.invalidate": answering(async (params) => (await oauth.invalidate(params), {})),
    "oauth.disconnect": answering(async (params) => (await oauth.disconnect(params), {})),
  };
}
