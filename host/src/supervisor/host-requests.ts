/**
 * The host's answers to the runtime's `host.*` requests: one member of `HostServices` per
 * method, installed on each new runtime connection by `registerHostRequests`.
 */
import {
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
  type Connection,
  type ParamsOf,
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
 * The answers that need nothing but a way to show things: `notify` and `openURL` go to the
 * display, `workingHours` is null (none set). The rest of `HostServices` comes from the trust
 * pieces (secrets, preferences, OAuth; see `app/trust.ts`).
 *
 * @example
 * const services: HostServices = { ...basicHostServices({ notify, openURL }), ...trust.services };
 */
export function basicHostServices(show: {
  notify(extensionId: string, title: string, body?: string): void;
  openURL(extensionId: string, url: string): void;
}): Pick<HostServices, "notify" | "openURL" | "workingHours"> {
  return {
    notify: ({ extensionId, title, body }) => (show.notify(extensionId, title, body), {}),
    openURL: ({ extensionId, url }) => (show.openURL(extensionId, url), {}),
    workingHours: () => null,
  };
}

/**
 * Installs every `host.*` handler on a connection.
 *
 * @example
 * registerHostRequests(connection, { ...basicHostServices({ notify, openURL }), ...trust.services });
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
