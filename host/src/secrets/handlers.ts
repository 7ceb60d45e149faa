/**
 * `host.secrets.get/set/delete` (SPEC.md "Runtime to host requests"), with exactly the
 * protocol's params and results. The `extensionId` is the runtime's stamp.
 */
import type { HostSecretsDelete, HostSecretsGet, HostSecretsSet, ParamsOf, ResultOf } from "@svc/runtime";
import type { ExtensionSecrets } from "./extension-secrets.js";
import { answering } from "./host-call-error.js";

type Handler<T> = (params: ParamsOf<T>) => Promise<ResultOf<T>>;

/** The three handlers, shaped like the host core's `HostServices` members of the same names. */
export interface SecretHandlers {
  secretsGet: Handler<typeof HostSecretsGet>;
  secretsSet: Handler<typeof HostSecretsSet>;
  secretsDelete: Handler<typeof HostSecretsDelete>;
}

/**
 * @example
 * const services = { ...basicHostServices(show), ...secretHandlers(new ExtensionSecrets(store)) };
 */
export function secretHandlers(secrets: ExtensionSecrets): SecretHandlers {
  return {
    secretsGet: answering(async ({ extensionId, name }) => ({ value: await secrets.get(extensionId, "secret", name) })),
    secretsSet: answering(async ({ extensionId, name, value }) => {
      await secrets.set(extensionId, "secret", name, value);
      return {};
    }),
    secretsDelete: answering(async ({ extensionId, name }) => {
      await secrets.delete(extensionId, "secret", name);
      return {};
    }),
  };
}
