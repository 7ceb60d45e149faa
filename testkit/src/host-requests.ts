/**
 * The app's end of the pipe answering the runtime's `host.*` requests with the fake host. Each
 * method comes from the protocol module (declared once); a refusal goes back as the app's error
 * answer, which the guest sees as its `ctx` call rejecting with that message.
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
  type RequestType,
} from "@svc/runtime";
import type { FakeHost, HostOp } from "./fake-host.js";

const REQUESTS: [HostOp, RequestType<any, any>][] = [
  ["openURL", HostOpenURL],
  ["notify", HostNotify],
  ["secrets.get", HostSecretsGet],
  ["secrets.set", HostSecretsSet],
  ["secrets.delete", HostSecretsDelete],
  ["preferences.set", HostPreferencesSet],
  ["oauth.connect", HostOAuthConnect],
  ["oauth.connections", HostOAuthConnections],
  ["oauth.token", HostOAuthToken],
  ["oauth.describe", HostOAuthDescribe],
  ["oauth.invalidate", HostOAuthInvalidate],
  ["oauth.disconnect", HostOAuthDisconnect],
  ["workingHours", HostWorkingHours],
];

/** @example answerHostCalls(connection, new FakeHost({ secrets: { apiKey: "k-1" } })); */
export function answerHostCalls(connection: Connection, host: FakeHost): void {
  for (const [op, type] of REQUESTS) {
    connection.onRequest(type, async (params: unknown) => {
      try {
        return await host.answer(op, params);
      } catch (error) {
        throw new ResponseError(ErrorCodes.HostCallFailed, (error as Error).message);
      }
    });
  }
}
