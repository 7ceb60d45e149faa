/** All connections of a provider in one secret-store value of at most 16 KB; records without tokens. */
import { describe, expect, it } from "vitest";
import { ExtensionSecrets, MemorySecretStore } from "../secrets/index.js";
import { ConnectionVault, toRecord, type StoredConnection } from "./connection-vault.js";

const connection = (accessToken: string): StoredConnection => ({
  id: "c1",
  connectedAt: "2025-03-01T09:30:00.000Z",
  needsReconnect: false,
  named: false,
  accessToken,
  refreshToken: "r",
  expiresAt: 1,
});

/** The access-token length that makes the stored JSON exactly `bytes` long. */
function tokenLengthFor(bytes: number): number {
  const overhead = JSON.stringify({ v: 1, connections: [connection("")] }).length;
  return bytes - overhead;
}

describe("ConnectionVault", () => {
  it("keeps every connection of a provider in one value under oauth.<provider>", async () => {
    const store = new MemorySecretStore();
    const vault = new ConnectionVault(new ExtensionSecrets(store));
    await vault.update("com.example.ci", "github", () => [connection("a1")]);
    expect(JSON.parse((await store.get("svc.com.example.ci", "oauth.github"))!)).toEqual({
      v: 1,
      connections: [connection("a1")],
    });
    expect(await vault.read("com.example.ci", "github")).toEqual([connection("a1")]);
    await vault.update("com.example.ci", "github", () => []);
    expect(await store.get("svc.com.example.ci", "oauth.github")).toBeNull();
  });

  it("stores 16,384 bytes and refuses 16,385, keeping what was there", async () => {
    const vault = new ConnectionVault(new ExtensionSecrets(new MemorySecretStore()));
    const fits = connection("t".repeat(tokenLengthFor(16_384)));
    await vault.update("com.example.ci", "github", () => [fits]);
    await expect(
      vault.update("com.example.ci", "github", () => [connection("t".repeat(tokenLengthFor(16_385)))]),
    ).rejects.toThrow("the stored sign-in of github is 16385 bytes; the most is 16384 (16 KB)");
    expect(await vault.read("com.example.ci", "github")).toEqual([fits]);
  });

  it("reads an unreadable value as no connections", async () => {
    const store = new MemorySecretStore();
    await store.set("svc.com.example.ci", "oauth.github", "{oops");
    expect(await new ConnectionVault(new ExtensionSecrets(store)).read("com.example.ci", "github")).toEqual([]);
  });

  it("makes records that never hold a token", () => {
    expect(toRecord({ ...connection("secret-access"), account: "ann", label: "Work", scopes: ["repo"] })).toEqual({
      id: "c1",
      account: "ann",
      label: "Work",
      connectedAt: "2025-03-01T09:30:00.000Z",
      scopes: ["repo"],
      needsReconnect: false,
    });
  });
});
