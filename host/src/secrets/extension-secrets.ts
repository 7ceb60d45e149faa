/**
 * SPEC.md "Authentication" 5 and "Secret names and values": each extension's secrets live under
 * its own service `svc.<extensionId>`, with account `secret.<name>` for `host.secrets.*`,
 * `oauth.<provider>` for sign-in tokens and `pref.<name>` for password preferences. The
 * extension id always comes from the runtime's stamp, never from the guest, so one extension
 * cannot name another's service.
 */
import { LIMITS } from "@svc/api";
import { HostRuleError } from "./host-call-error.js";
import type { SecretStore } from "./secret-store.js";
import { isSecretName, SECRET_NAME_RULE } from "@svc/api/secret-name";

/** A name or value that breaks SPEC.md's rules; the message is for the extension's author. */
export class SecretRuleError extends HostRuleError {
  override readonly name: string = "SecretRuleError";
}

/** The keychain service of one extension. @example serviceFor("com.example.ci") // "svc.com.example.ci" */
export function serviceFor(extensionId: string): string {
  return `svc.${extensionId}`;
}

/** The kinds of thing the host keeps for an extension, each under its own account prefix. */
export type SecretKind = "secret" | "oauth" | "pref";

/**
 * Throws `SecretRuleError` unless `name` is 1–64 of A–Z a–z 0–9 . _ -.
 *
 * @example
 * checkSecretName("apiKey"); // ok
 * checkSecretName("api key"); // throws: secret name "api key" should be 1–64 characters from A–Z a–z 0–9 . _ -
 */
export function checkSecretName(name: string, what = "secret name"): void {
  if (!isSecretName(name as unknown)) {
    const shown =
      typeof name === "string" ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name) : String(name);
    throw new SecretRuleError(`${what} ${shown} should be ${SECRET_NAME_RULE}`);
  }
}

/**
 * Throws `SecretRuleError` unless `value` is a string of at most 16,384 bytes of UTF-8.
 *
 * @example
 * checkSecretValue("x".repeat(16385)); // throws: secret value is 16385 bytes; the most is 16384 (16 KB)
 */
export function checkSecretValue(value: string, what = "secret value"): void {
  if (typeof value !== "string") throw new SecretRuleError(`${what} should be a string`);
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > LIMITS.secretValueBytes) {
    throw new SecretRuleError(`${what} is ${bytes} bytes; the most is ${LIMITS.secretValueBytes} (16 KB)`);
  }
}

/**
 * An extension's secrets, over any `SecretStore`.
 *
 * @example
 * const secrets = new ExtensionSecrets(new KeyringSecretStore());
 * await secrets.set("com.example.ci", "secret", "apiKey", "s3cret"); // svc.com.example.ci / secret.apiKey
 * await secrets.get("com.example.ci", "secret", "apiKey");           // "s3cret"
 */
export class ExtensionSecrets {
  constructor(readonly store: SecretStore) {}

  #where(extensionId: string, kind: SecretKind, name: string): [string, string] {
    checkSecretName(name, kind === "oauth" ? "provider name" : kind === "pref" ? "preference name" : "secret name");
    return [serviceFor(extensionId), `${kind}.${name}`];
  }

  /** The value, or `null` when unset. */
  get(extensionId: string, kind: SecretKind, name: string): Promise<string | null> {
    const [service, account] = this.#where(extensionId, kind, name);
    return this.store.get(service, account);
  }

  /** Stores the value after checking the name and the 16 KB limit. */
  async set(extensionId: string, kind: SecretKind, name: string, value: string): Promise<void> {
    const [service, account] = this.#where(extensionId, kind, name);
    checkSecretValue(
      value,
      kind === "oauth"
        ? `the stored sign-in of ${name}`
        : kind === "pref"
          ? `password preference ${name}`
          : "secret value",
    );
    await this.store.set(service, account, value);
  }

  /** Forgets the value; `true` when there was one. */
  delete(extensionId: string, kind: SecretKind, name: string): Promise<boolean> {
    const [service, account] = this.#where(extensionId, kind, name);
    return this.store.delete(service, account);
  }
}
