/**
 * Where secrets live: a store of `(service, account) → value`. The host keeps every secret of
 * an extension under the service `svc.<extensionId>` (see `extension-secrets.ts`); the store
 * itself knows nothing about extensions.
 */

/**
 * A place that keeps secrets out of plain-text files: the operating system's keychain
 * (`KeyringSecretStore`) or, only when chosen explicitly, process memory (`MemorySecretStore`).
 *
 * @example
 * await store.set("svc.com.example.ci", "secret.apiKey", "s3cret");
 * await store.get("svc.com.example.ci", "secret.apiKey"); // "s3cret"
 * await store.delete("svc.com.example.ci", "secret.apiKey"); // true
 */
export interface SecretStore {
  /** The value, or `null` when nothing is stored under that service and account. */
  get(service: string, account: string): Promise<string | null>;
  /** Stores (or replaces) the value. */
  set(service: string, account: string, value: string): Promise<void>;
  /** Forgets the value; `true` when there was one. */
  delete(service: string, account: string): Promise<boolean>;
  /** Every account stored under exactly this service (uninstalling forgets them all). */
  accounts(service: string): Promise<string[]>;
}

/** What the host says when the machine has no usable secret store. */
export const NO_SECRET_STORE_MESSAGE =
  "no secret store available: install and unlock a Secret Service such as gnome-keyring";

/**
 * The machine has no secret store the host can use (no Secret Service on D-Bus, or a locked
 * one). The host refuses to fall back to plain text: the caller shows this message.
 *
 * @example
 * catch (error) { if (error instanceof SecretStoreUnavailableError) notify(error.message); }
 */
export class SecretStoreUnavailableError extends Error {
  override readonly name = "SecretStoreUnavailableError";
  /** What the platform said, for the log. */
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(NO_SECRET_STORE_MESSAGE, options);
    this.detail = detail;
  }
}
