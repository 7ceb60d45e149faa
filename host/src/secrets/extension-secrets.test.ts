/**
 * SPEC.md's secret rules through the `host.secrets.*` handlers, on the real keyring and on the
 * in-memory store: namespacing by the stamped extension id, names 1–64, values ≤ 16 KB, null
 * for unset, no reading across extensions.
 */
import { describe, expect, it } from "vitest";
import { ErrorCodes, ResponseError } from "@svc/runtime";
import { ExtensionSecrets, KeyringSecretStore, MemorySecretStore, secretHandlers, type SecretStore } from "./index.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";

useSessionKeyring();

/** Passes a value through JSON as the pipe would. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe.each([
  ["keyring", () => new KeyringSecretStore() as SecretStore],
  ["memory", () => new MemorySecretStore() as SecretStore],
])("host.secrets.* on the %s store", (_label, makeStore) => {
  const setup = () => {
    const store = makeStore();
    return { store, handlers: secretHandlers(new ExtensionSecrets(store)) };
  };

  it("sets, gets and deletes under svc.<extensionId> / secret.<name>", async () => {
    const { store, handlers } = setup();
    expect(
      wire(await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "apiKey", value: "s3cret" })),
    ).toEqual({});
    expect(await store.get("svc.com.example.ci", "secret.apiKey")).toBe("s3cret");
    expect(wire(await handlers["secrets.get"]({ extensionId: "com.example.ci", name: "apiKey" }))).toEqual({
      value: "s3cret",
    });
    expect(wire(await handlers["secrets.delete"]({ extensionId: "com.example.ci", name: "apiKey" }))).toEqual({});
    expect(await store.get("svc.com.example.ci", "secret.apiKey")).toBeNull();
  });

  it("answers {value: null} for a secret never set, and deleting it is fine", async () => {
    const { handlers } = setup();
    expect(wire(await handlers["secrets.get"]({ extensionId: "com.example.ci", name: "never.set" }))).toEqual({
      value: null,
    });
    expect(await handlers["secrets.delete"]({ extensionId: "com.example.ci", name: "never.set" })).toEqual({});
  });

  it("never lets one extension read or delete another's secret", async () => {
    const { handlers } = setup();
    await handlers["secrets.set"]({ extensionId: "com.example.a", name: "token", value: "a-only" });
    expect(await handlers["secrets.get"]({ extensionId: "com.example.b", name: "token" })).toEqual({ value: null });
    await handlers["secrets.delete"]({ extensionId: "com.example.b", name: "token" });
    expect(await handlers["secrets.get"]({ extensionId: "com.example.a", name: "token" })).toEqual({ value: "a-only" });
    await handlers["secrets.delete"]({ extensionId: "com.example.a", name: "token" });
  });

  it("accepts a 64-character name and refuses 65", async () => {
    const { handlers } = setup();
    const name64 = "a".repeat(64);
    await handlers["secrets.set"]({ extensionId: "com.example.ci", name: name64, value: "ok" });
    expect(await handlers["secrets.get"]({ extensionId: "com.example.ci", name: name64 })).toEqual({ value: "ok" });
    await handlers["secrets.delete"]({ extensionId: "com.example.ci", name: name64 });
    const refusal = await handlers["secrets.set"]({
      extensionId: "com.example.ci",
      name: "a".repeat(65),
      value: "no",
    }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ResponseError);
    expect((refusal as ResponseError).code).toBe(ErrorCodes.InvalidParams);
    expect((refusal as ResponseError).message).toBe(
      `secret name "${"a".repeat(65)}" should be 1–64 characters from A–Z a–z 0–9 . _ -`,
    );
  });

  it("accepts exactly the characters A–Z a–z 0–9 . _ - and nothing else", async () => {
    const { handlers } = setup();
    await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "Az09._-", value: "ok" });
    await handlers["secrets.delete"]({ extensionId: "com.example.ci", name: "Az09._-" });
    for (const name of ["", "with space", "slash/name", "ünïcode", "new\nline", "colon:x"]) {
      await expect(handlers["secrets.get"]({ extensionId: "com.example.ci", name })).rejects.toThrow(
        `secret name ${JSON.stringify(name)} should be 1–64 characters from A–Z a–z 0–9 . _ -`,
      );
    }
  });

  it("accepts a 16,384-byte value and refuses 16,385 bytes (UTF-8 counted)", async () => {
    const { handlers } = setup();
    await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "big", value: "x".repeat(16_384) });
    expect((await handlers["secrets.get"]({ extensionId: "com.example.ci", name: "big" })).value).toHaveLength(16_384);
    await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "big", value: "é".repeat(8_192) });
    for (const value of ["x".repeat(16_385), `${"é".repeat(8_192)}x`]) {
      const refusal = await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "big", value }).catch(
        (e: unknown) => e,
      );
      expect((refusal as ResponseError).code).toBe(ErrorCodes.InvalidParams);
      expect((refusal as Error).message).toBe("secret value is 16385 bytes; the most is 16384 (16 KB)");
    }
    // The refused value did not replace the stored one.
    expect((await handlers["secrets.get"]({ extensionId: "com.example.ci", name: "big" })).value).toBe(
      "é".repeat(8_192),
    );
    await handlers["secrets.delete"]({ extensionId: "com.example.ci", name: "big" });
  });
});
