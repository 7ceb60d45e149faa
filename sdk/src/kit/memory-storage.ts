/**
 * An in-memory `ctx.storage` for an extension's own tests. Values go through JSON on the way
 * in and out, as they do in the real storage, so a test sees what a run would see.
 */
import type { Storage } from "../types.js";

/**
 * A fresh, empty storage; `snapshot()` shows what is stored.
 *
 * @example
 * const storage = memoryStorage();
 * await applyTriage(storage, { actionId: TRIAGE.done.id, key: "reviews", itemId: "pr-1" });
 */
export function memoryStorage(
  initial: Record<string, unknown> = {},
): Storage & { snapshot(): Record<string, unknown> } {
  const values = new Map<string, string>();
  for (const [key, value] of Object.entries(initial)) values.set(key, JSON.stringify(value));
  return {
    async get<T>(key: string) {
      const json = values.get(key);
      return json === undefined ? undefined : (JSON.parse(json) as T);
    },
    async set(key: string, value: unknown) {
      values.set(key, JSON.stringify(value));
    },
    async delete(key: string) {
      values.delete(key);
    },
    snapshot() {
      return Object.fromEntries([...values].map(([key, json]) => [key, JSON.parse(json)]));
    },
  };
}
