/**
 * Secrets (SPEC.md "Authentication" 5): the `SecretStore` interface, the OS store through
 * `@napi-rs/keyring`, an in-memory one chosen only explicitly, per-extension namespacing with
 * SPEC's name and size rules, and the `host.secrets.*` handlers.
 *
 * @example
 * const secrets = new ExtensionSecrets(await openSecretStore());
 * const services = { ...secretHandlers(secrets) };
 */
export { type SecretStore, SecretStoreUnavailableError, NO_SECRET_STORE_MESSAGE } from "./secret-store.js";
export { KeyringSecretStore, openSecretStore } from "./keyring-store.js";
export { MemorySecretStore } from "./memory-store.js";
export {
  ExtensionSecrets,
  SecretRuleError,
  serviceFor,
  checkSecretName,
  checkSecretValue,
  type SecretKind,
} from "./extension-secrets.js";
export { secretHandlers, type SecretHandlers } from "./handlers.js";
export { answering, toResponseError, HostRuleError, HOST_CALL_FAILED } from "./host-call-error.js";
export { OneAtATime } from "./one-at-a-time.js";
