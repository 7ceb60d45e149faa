/**
 * The OS store against a real gnome-keyring on a private session bus. The keyring library keeps
 * the first bus address it sees for the life of the process, so each bus setup has its own test
 * file (vitest gives each file its own process): see no-secret-service.test.ts.
 */
import { describe, expect, it } from "vitest";
import { KeyringSecretStore, openSecretStore } from "./index.js";
import { secretStoreContract } from "../../../test/trust/secret-store-contract.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";

describe("KeyringSecretStore on gnome-keyring", () => {
  useSessionKeyring();

  secretStoreContract("keyring", () => new KeyringSecretStore());

  it("opens when the Secret Service answers", async () => {
    expect(await openSecretStore()).toBeInstanceOf(KeyringSecretStore);
  });
});
