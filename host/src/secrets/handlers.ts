/**
 * `host.secrets.get/set/delete` (SPEC.md "Runtime to host requests"), with exactly the
 * protocol's params and results. The `extensionId` is the runtime's stamp.
 */
import type { AsyncHostAnswers } from "@svc/runtime";
import type { ExtensionSecrets } from "./extension-secrets.js";
import { answering } from "./host-call-error.js";

/** The three handlers, the host core's `HostServices` members of the same names (the host ops). */
export type SecretHandlers = AsyncHostAnswers<"secrets.get" | "secrets.set" | "secrets.delete">;

/**
 * @example
 * const services = { ...basicHostServices(show), ...secretHandlers(new ExtensionSecrets(store)) };
 */
export function secretHandlers(secrets: ExtensionSecrets): SecretHandlers {
  return {
    "secrets.get": answering(async ({ extensionId, name }) => ({
      value: await secrets.get(extensionId, "secret", name),
    })),
    "secrets.set": answering(async ({ extensionId, name, value }) => {
      await secrets.set(extensionId, "secret", name, value);
      return {};
    }),
    "secrets.delete": answering(async ({ extensionId, name }) => {
      await secrets.delete(extensionId, "secret", name);
      return {};
    }),
  };
}
