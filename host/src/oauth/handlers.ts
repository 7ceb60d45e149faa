/**
 * `host.oauth.*` (SPEC.md "Runtime to host requests") with exactly the protocol's params and
 * results, answered by an `OAuthService`.
 */
import type {
  HostOAuthConnect,
  HostOAuthConnections,
  HostOAuthDescribe,
  HostOAuthDisconnect,
  HostOAuthInvalidate,
  HostOAuthToken,
  ParamsOf,
  ResultOf,
} from "@svc/runtime";
import { answering } from "../secrets/index.js";
import type { OAuthService } from "./oauth-service.js";

type Handler<T> = (params: ParamsOf<T>) => Promise<ResultOf<T>>;

/** The six handlers, shaped like the host core's `HostServices` members of the same names. */
export interface OAuthHandlers {
  oauthConnect: Handler<typeof HostOAuthConnect>;
  oauthConnections: Handler<typeof HostOAuthConnections>;
  oauthToken: Handler<typeof HostOAuthToken>;
  oauthDescribe: Handler<typeof HostOAuthDescribe>;
  oauthInvalidate: Handler<typeof HostOAuthInvalidate>;
  oauthDisconnect: Handler<typeof HostOAuthDisconnect>;
}

/**
 * @example
 * const services = { ...basicHostServices(show), ...oauthHandlers(oauth) };
 */
export function oauthHandlers(oauth: OAuthService): OAuthHandlers {
  return {
    oauthConnect: answering((params) => oauth.connect(params)),
    oauthConnections: answering(async (params) => ({ connections: await oauth.connections(params) })),
    oauthToken: answering((params) => oauth.token(params)),
    oauthDescribe: answering(async (params) => ({ connection: await oauth.describe(params) })),
    oauthInvalidate: answering(async (params) => (await oauth.invalidate(params), {})),
    oauthDisconnect: answering(async (params) => (await oauth.disconnect(params), {})),
  };
}
