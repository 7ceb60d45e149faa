/**
 * Requests the runtime sends to the host on behalf of an extension's `ctx` (SPEC "Runtime to
 * host requests"). The runtime stamps `extensionId` with the calling sandbox's own id, whatever
 * the guest sent; it is on every one of them (for `host.openURL`, `host.notify` and
 * `host.workingHours` this is our addition, so the host knows who asked).
 */
import { z } from "zod";
import { displayText } from "@svc/api";
import { request } from "./define.js";
import {
  ConnectionRecordSchema,
  EmptySchema,
  ExtensionIdSchema,
  SecretNameSchema,
  SecretValueSchema,
  WorkingHoursSchema,
} from "./common.js";

const caller = { extensionId: ExtensionIdSchema };
const provider = z.string().min(1).max(64).optional();

/** @example {"jsonrpc":"2.0","id":1,"method":"host.openURL","params":{"extensionId":"com.example.ci","url":"https://ci.example.com/run/7"}} */
export const HostOpenURL = request(
  "host.openURL",
  z.object({ ...caller, url: z.string().min(1).max(8192) }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":2,"method":"host.notify","params":{"extensionId":"com.example.ci","title":"Deployed","body":"api v42"}} */
export const HostNotify = request(
  "host.notify",
  // Shown on a terminal and under the notch: no controls, no bidi characters (display-text.ts).
  z.object({
    ...caller,
    title: displayText({ max: 256 }),
    body: displayText({ max: 1024, multiline: true }).optional(),
  }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":3,"method":"host.secrets.get","params":{"extensionId":"com.example.ci","name":"apiKey"}} → {"value":null} */
export const HostSecretsGet = request(
  "host.secrets.get",
  z.object({ ...caller, name: SecretNameSchema }),
  z.object({ value: z.string().nullable() }),
);

/** @example {"jsonrpc":"2.0","id":4,"method":"host.secrets.set","params":{"extensionId":"com.example.ci","name":"apiKey","value":"s3cret"}} */
export const HostSecretsSet = request(
  "host.secrets.set",
  z.object({ ...caller, name: SecretNameSchema, value: SecretValueSchema }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":5,"method":"host.secrets.delete","params":{"extensionId":"com.example.ci","name":"apiKey"}} */
export const HostSecretsDelete = request(
  "host.secrets.delete",
  z.object({ ...caller, name: SecretNameSchema }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":6,"method":"host.preferences.set","params":{"extensionId":"com.example.ci","name":"branch","value":"main"}} */
export const HostPreferencesSet = request(
  "host.preferences.set",
  z.object({ ...caller, name: z.string().min(1).max(128), value: z.unknown() }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":7,"method":"host.oauth.connect","params":{"extensionId":"com.example.ci","provider":"github"}} */
export const HostOAuthConnect = request("host.oauth.connect", z.object({ ...caller, provider }), EmptySchema);

/** @example {"jsonrpc":"2.0","id":8,"method":"host.oauth.connections","params":{"extensionId":"com.example.ci"}} → {"connections":[…]} */
export const HostOAuthConnections = request(
  "host.oauth.connections",
  z.object({ ...caller, provider }),
  z.object({ connections: z.array(ConnectionRecordSchema) }),
);

/** @example {"jsonrpc":"2.0","id":9,"method":"host.oauth.token","params":{"extensionId":"com.example.ci","provider":"github"}} → {"token":"gho_…","connection":{…}} or {"token":null} */
export const HostOAuthToken = request(
  "host.oauth.token",
  z.object({ ...caller, provider, connection: z.string().optional() }),
  z.object({ token: z.string().nullable(), connection: ConnectionRecordSchema.optional() }),
);

/** @example {"jsonrpc":"2.0","id":10,"method":"host.oauth.describe","params":{"extensionId":"com.example.ci","connection":"c1","account":"me@example.com","label":"Work"}} */
export const HostOAuthDescribe = request(
  "host.oauth.describe",
  // Shown in Settings and the terminal: the display-text rule, with a cap.
  z.object({
    ...caller,
    provider,
    connection: z.string(),
    account: displayText({ max: 256 }),
    label: displayText({ max: 256 }),
  }),
  z.object({ connection: ConnectionRecordSchema }),
);

/** @example {"jsonrpc":"2.0","id":11,"method":"host.oauth.invalidate","params":{"extensionId":"com.example.ci","connection":"c1"}} */
export const HostOAuthInvalidate = request(
  "host.oauth.invalidate",
  z.object({ ...caller, provider, connection: z.string() }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":12,"method":"host.oauth.disconnect","params":{"extensionId":"com.example.ci","connection":"c1"}} */
export const HostOAuthDisconnect = request(
  "host.oauth.disconnect",
  z.object({ ...caller, provider, connection: z.string().optional() }),
  EmptySchema,
);

/** @example {"jsonrpc":"2.0","id":13,"method":"host.workingHours","params":{"extensionId":"com.example.ci"}} → {"start":540,"end":1020,"weekdaysOnly":true} or null */
export const HostWorkingHours = request("host.workingHours", z.object({ ...caller }), WorkingHoursSchema.nullable());
