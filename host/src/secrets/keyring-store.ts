/**
 * The operating system's secret store through `@napi-rs/keyring`: the macOS Keychain, the
 * Windows Credential Manager, and on Linux a Secret Service on D-Bus (gnome-keyring, KWallet…).
 *
 * On Linux the entry is pinned to the Secret Service. Left alone, the library would fall back to
 * the kernel keyring (keyutils), which forgets everything at logout or reboot: a secret that
 * silently vanishes is worse than a clear "no secret store" message.
 */
import { AsyncEntry, findCredentialsAsync, type EntryOptions } from "@napi-rs/keyring";
import { SecretStoreUnavailableError, type SecretStore } from "./secret-store.js";

const ENTRY_OPTIONS: EntryOptions = { linux: { store: "secret-service" } };

/**
 * True when the library's error means "there is no usable store here" (no D-Bus session, no
 * Secret Service on it, a locked keyring whose unlock prompt could not be shown) rather than a
 * problem with this one entry.
 */
function meansNoStore(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^(Platform failure|Couldn't access platform storage|No platform storage)/i.test(message);
}

/** Runs one keyring call and turns "no store" failures into `SecretStoreUnavailableError`. */
async function withEntry<T>(service: string, account: string, use: (entry: AsyncEntry) => Promise<T>): Promise<T> {
  try {
    // The constructor itself reaches D-Bus on Linux, so it may throw too.
    return await use(new AsyncEntry(service, account, ENTRY_OPTIONS));
  } catch (error) {
    if (meansNoStore(error))
      throw new SecretStoreUnavailableError((error as Error).message ?? String(error), { cause: error });
    throw new Error(`secret store: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
}

/**
 * The real store. Every call goes to the platform; nothing is cached in this process.
 *
 * @example
 * const store = new KeyringSecretStore();
 * await store.set("svc.com.example.ci", "secret.apiKey", "s3cret");
 */
export class KeyringSecretStore implements SecretStore {
  get(service: string, account: string): Promise<string | null> {
    return withEntry(service, account, (entry) => entry.getPassword());
  }

  set(service: string, account: string, value: string): Promise<void> {
    return withEntry(service, account, (entry) => entry.setPassword(value));
  }

  delete(service: string, account: string): Promise<boolean> {
    return withEntry(service, account, (entry) => entry.deleteCredential());
  }

  async accounts(service: string): Promise<string[]> {
    // The search takes no store option: ask the pinned store first, so a machine without a
    // Secret Service gets the clear error rather than an answer from another store.
    await this.get(service, "probe");
    try {
      const found = await findCredentialsAsync(service);
      return [...new Set(found.map((credential) => credential.account))].sort();
    } catch (error) {
      throw new Error(`secret store: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
  }
}

/**
 * Checks that the OS store works (one read of an entry that need not exist) and returns it, or
 * throws `SecretStoreUnavailableError`. The host calls it at start to say early what is wrong.
 *
 * @example
 * const store = await openSecretStore(); // throws "no secret store available: install and unlock …"
 */
export async function openSecretStore(): Promise<KeyringSecretStore> {
  const store = new KeyringSecretStore();
  await store.get("svc", "probe");
  return store;
}
