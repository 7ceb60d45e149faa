/**
 * The host's answers to the runtime's `host.*` requests, typed from the protocol's one table
 * (`HOST_REQUESTS` in @svc/runtime): `HostServices` has one member per host op, named as the op
 * ("secrets.get"), so an op declared there that the host does not answer does not compile; and
 * `registerHostRequests` installs them all in one loop over the same table.
 */
import { HOST_REQUESTS, type Connection, type HostAnswers, type HostOp, type RequestType } from "@svc/runtime";

/** Every `host.*` request the runtime may send, and who answers it. */
export type HostServices = HostAnswers;

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
 * Installs every `host.*` handler on a connection: one per op of `HOST_REQUESTS`.
 *
 * @example
 * registerHostRequests(connection, { ...basicHostServices({ notify, openURL }), ...trust.services });
 */
export function registerHostRequests(connection: Connection, services: HostServices): void {
  for (const op of Object.keys(HOST_REQUESTS) as HostOp[]) answer(connection, op, services[op]);
}

/** One op's handler on the connection. `HostServices` pairs each op with its handler's types; TypeScript cannot follow that pairing through `op`, hence the widening here. */
function answer<Op extends HostOp>(connection: Connection, op: Op, handler: HostServices[Op]): void {
  connection.onRequest(HOST_REQUESTS[op] as RequestType<unknown, unknown>, handler as (params: unknown) => unknown);
}
