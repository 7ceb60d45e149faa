/**
 * One suite for every `SecretStore` implementation (the OS keyring, the in-memory store): what
 * any store must do, run by each implementation's own test file.
 */
import { describe, expect, it } from "vitest";
import type { SecretStore } from "../../host/src/secrets/index.js";

/**
 * @example
 * secretStoreContract("memory", () => new MemorySecretStore());
 */
export function secretStoreContract(label: string, makeStore: () => SecretStore): void {
  describe(`SecretStore contract: ${label}`, () => {
    const service = `svc.contract.${label.replace(/\W/g, "")}.${process.pid}`;

    it("gives null for an account that was never set", async () => {
      expect(await makeStore().get(service, "secret.never")).toBeNull();
    });

    it("gives back what was set, through a new instance too", async () => {
      await makeStore().set(service, "secret.roundtrip", "s3cret");
      expect(await makeStore().get(service, "secret.roundtrip")).toBe(label === "memory" ? null : "s3cret");
    });

    it("replaces a value and forgets it on delete", async () => {
      const store = makeStore();
      await store.set(service, "secret.k", "one");
      await store.set(service, "secret.k", "two");
      expect(await store.get(service, "secret.k")).toBe("two");
      expect(await store.delete(service, "secret.k")).toBe(true);
      expect(await store.get(service, "secret.k")).toBeNull();
      expect(await store.delete(service, "secret.k")).toBe(false);
    });

    it("keeps services and accounts apart", async () => {
      const store = makeStore();
      await store.set(`${service}.a`, "secret.k", "a");
      await store.set(`${service}.b`, "secret.k", "b");
      await store.set(`${service}.a`, "pref.k", "p");
      expect(await store.get(`${service}.a`, "secret.k")).toBe("a");
      expect(await store.get(`${service}.b`, "secret.k")).toBe("b");
      expect(await store.get(`${service}.a`, "pref.k")).toBe("p");
      for (const [s, a] of [
        [`${service}.a`, "secret.k"],
        [`${service}.b`, "secret.k"],
        [`${service}.a`, "pref.k"],
      ])
        await store.delete(s, a);
    });

    it("lists the accounts of exactly one service", async () => {
      const store = makeStore();
      await store.set(`${service}.list`, "secret.k", "a");
      await store.set(`${service}.list`, "pref.p", "b");
      await store.set(`${service}.listed`, "secret.other", "c");
      expect(await store.accounts(`${service}.list`)).toEqual(["pref.p", "secret.k"]);
      expect(await store.accounts(`${service}.none`)).toEqual([]);
      for (const [s, a] of [
        [`${service}.list`, "secret.k"],
        [`${service}.list`, "pref.p"],
        [`${service}.listed`, "secret.other"],
      ])
        await store.delete(s, a);
      expect(await store.accounts(`${service}.list`)).toEqual([]);
    });

    it("keeps any text exactly: unicode, newlines and 16 KB", async () => {
      const store = makeStore();
      const values = ["žluťoučký 🐴\nline two\t", "x".repeat(16_384), ""];
      for (const value of values) {
        await store.set(service, "secret.text", value);
        expect(await store.get(service, "secret.text")).toBe(value);
      }
      await store.delete(service, "secret.text");
    });
  });
}
