/**
 * A secret store in process memory, for a headless demo or a test that chose it explicitly.
 * It never writes anything anywhere: every secret is gone when the process ends. The host never
 * picks it on its own when the OS store is missing (that is an error, see `openSecretStore`).
 */
import type { SecretStore } from "./secret-store.js";

/**
 * @example
 * const store = new MemorySecretStore();
 * await store.set("svc.a.b", "secret.k", "v");
 */
export class MemorySecretStore implements SecretStore {
  readonly #values = new Map<string, string>();

  #key(service: string, account: string): string {
    // A NUL cannot occur in either part (both are checked names), so keys never collide.
    return `${service}\u0000${account}`;
  }

  async get(service: string, account: string): Promise<string | null> {
    return this.#values.get(this.#key(service, account)) ?? null;
  }

  async set(service: string, account: string, value: string): Promise<void> {
    this.#values.set(this.#key(service, account), value);
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.#values.delete(this.#key(service, account));
  }

  async accounts(service: string): Promise<string[]> {
    const prefix = `${service}\u0000`;
    return [...this.#values.keys()]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length))
      .sort();
  }
}
