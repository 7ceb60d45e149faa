/**
 * The host's answers to the runtime's `host.*` requests. Today: `notify` and `openURL` are shown
 * in the terminal, `workingHours` is null, and secrets, OAuth and `preferences.set` answer a
 * clear "not available yet" error. Each of those is one member of `HostServices`: the next
 * issue fills them in without touching the wiring.
 */
import {
  ErrorCodes,
  HostNotify,
  HostOAuthConnect,
  HostOAuthConnections,
  HostOAuthDescribe,
  HostOAuthDisconnect,
  HostOAuthInvalidate,
  HostOAuthToken,
  HostOpenURL,
  HostPreferencesSet,
  HostSecretsDelete,
  HostSecretsGet,
  HostSecretsSet,
  HostWorkingHours,
  ResponseError,
  type Connection,
  type ParamsOf,
  type RequestType,
  type ResultOf,
} from "@svc/runtime";

type Handler<T> = (params: ParamsOf<T>) => Promise<ResultOf<T>> | ResultOf<T>;

/** Every `host.*` request the runtime may send, and who answers it. */
export interface HostServices {
  notify: Handler<typeof HostNotify>;
  openURL: Handler<typeof HostOpenURL>;
  workingHours: Handler<typeof HostWorkingHours>;
  secretsGet: Handler<typeof HostSecretsGet>;
  secretsSet: Handler<typeof HostSecretsSet>;
  secretsDelete: Handler<typeof HostSecretsDelete>;
  preferencesSet: Handler<typeof HostPreferencesSet>;
  oauthConnect: Handler<typeof HostOAuthConnect>;
  oauthConnections: Handler<typeof HostOAuthConnections>;
  oauthToken: Handler<typeof HostOAuthToken>;
  oauthDescribe: Handler<typeof HostOAuthDescribe>;
  oauthInvalidate: Handler<typeof HostOAuthInvalidate>;
  oauthDisconnect: Handler<typeof HostOAuthDisconnect>;
}

/**
 * A handler that refuses with MethodNotFound and says why.
 *
 * @example
 * notAvailableYet(HostSecretsGet, "secrets")({ extensionId: "x.y", name: "k" });
 * // throws ResponseError -32601 "host.secrets.get is not available yet: this svc-host does not keep secrets"
 */
export function notAvailableYet<T extends RequestType<unknown, unknown>>(type: T, what: string): Handler<T> {
  return () => {
    throw new ResponseError(ErrorCodes.MethodNotFound, `${type.method} is not available yet: this svc-host does not ${what}`);
  };
}

/** The services of this version of the host, given how to show notifications and URLs. */
export function currentHostServices(show: {
  notify(extensionId: string, title: string, body?: string): void;
  openURL(extensionId: string, url: string): void;
}): HostServices {
  return {
    notify: ({ extensionId, title, body }) => (show.notify(extensionId, title, body), {}),
    openURL: ({ extensionId, url }) => (show.openURL(extensionId, url), {}),
    workingHours: () => null,
    secretsGet: notAvailableYet(HostSecretsGet, "keep secrets"),
    secretsSet: notAvailableYet(HostSecretsSet, "keep secrets"),
    secretsDelete: notAvailableYet(HostSecretsDelete, "keep secrets"),
    preferencesSet: notAvailableYet(HostPreferencesSet, "store preferences"),
    oauthConnect: notAvailableYet(HostOAuthConnect, "sign in with OAuth"),
    oauthConnections: notAvailableYet(HostOAuthConnections, "sign in with OAuth"),
    oauthToken: notAvailableYet(HostOAuthToken, "sign in with OAuth"),
    oauthDescribe: notAvailableYet(HostOAuthDescribe, "sign in with OAuth"),
    oauthInvalidate: notAvailableYet(HostOAuthInvalidate, "sign in with OAuth"),
    oauthDisconnect: notAvailableYet(HostOAuthDisconnect, "sign in with OAuth"),
  };
}

/**
 * Installs every `host.*` handler on a connection.
 *
 * @example
 * registerHostRequests(connection, currentHostServices({ notify, openURL }));
 */
export function registerHostRequests(connection: Connection, services: HostServices): void {
  connection.onRequest(HostNotify, services.notify);
  connection.onRequest(HostOpenURL, services.openURL);
  connection.onRequest(HostWorkingHours, services.workingHours);
  connection.onRequest(HostSecretsGet, services.secretsGet);
  connection.onRequest(HostSecretsSet, services.secretsSet);
  connection.onRequest(HostSecretsDelete, services.secretsDelete);
  connection.onRequest(HostPreferencesSet, services.preferencesSet);
  connection.onRequest(HostOAuthConnect, services.oauthConnect);
  connection.onRequest(HostOAuthConnections, services.oauthConnections);
  connection.onRequest(HostOAuthToken, services.oauthToken);
  connection.onRequest(HostOAuthDescribe, services.oauthDescribe);
  connection.onRequest(HostOAuthInvalidate, services.oauthInvalidate);
  connection.onRequest(HostOAuthDisconnect, services.oauthDisconnect);
}
