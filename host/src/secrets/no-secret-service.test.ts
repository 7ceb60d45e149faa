/**
 * A session bus with no Secret Service on it: the host says so and refuses to keep the secret
 * anywhere else. (Its own file: the keyring library keeps the first bus it sees per process.)
 */
import { expect, it } from "vitest";
import { ResponseError } from "@svc/runtime";
import {
  ExtensionSecrets,
  HOST_CALL_FAILED,
  KeyringSecretStore,
  NO_SECRET_STORE_MESSAGE,
  openSecretStore,
  secretHandlers,
  SecretStoreUnavailableError,
} from "./index.js";
import { startBusWithoutKeyring, useSessionKeyring } from "../../../test/trust/session-keyring.js";

useSessionKeyring(startBusWithoutKeyring);

it("says there is no secret store, in those words, and stores nothing", async () => {
  const store = new KeyringSecretStore();
  const refusal = await store.set("svc.com.example.ci", "secret.k", "plain?").catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(SecretStoreUnavailableError);
  expect((refusal as Error).message).toBe(
    "no secret store available: install and unlock a Secret Service such as gnome-keyring",
  );
  expect((refusal as SecretStoreUnavailableError).detail).toMatch(/org\.freedesktop\.secrets/);
  await expect(store.get("svc.com.example.ci", "secret.k")).rejects.toThrow(NO_SECRET_STORE_MESSAGE);
  await expect(store.delete("svc.com.example.ci", "secret.k")).rejects.toThrow(NO_SECRET_STORE_MESSAGE);
  await expect(openSecretStore()).rejects.toThrow(NO_SECRET_STORE_MESSAGE);
});

it("answers host.secrets.* with that message as a host-call failure", async () => {
  const handlers = secretHandlers(new ExtensionSecrets(new KeyringSecretStore()));
  const refusal = await handlers["secrets.set"]({ extensionId: "com.example.ci", name: "k", value: "v" }).catch(
    (e: unknown) => e,
  );
  expect(refusal).toBeInstanceOf(ResponseError);
  expect((refusal as ResponseError).code).toBe(HOST_CALL_FAILED);
  expect((refusal as ResponseError).message).toBe(NO_SECRET_STORE_MESSAGE);
});
