/** No D-Bus session at all (a bare server, a container): the same clear refusal. */
import { afterAll, expect, it } from "vitest";
import { KeyringSecretStore, NO_SECRET_STORE_MESSAGE, SecretStoreUnavailableError } from "./index.js";
import { useBus } from "../../../test/trust/session-keyring.js";

afterAll(() => useBus(undefined));

it("refuses to store a secret when there is no session bus", async () => {
  useBus("unix:path=/nonexistent/svc-test-bus");
  const refusal = await new KeyringSecretStore().set("svc.com.example.ci", "secret.k", "v").catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(SecretStoreUnavailableError);
  expect((refusal as Error).message).toBe(NO_SECRET_STORE_MESSAGE);
  await expect(new KeyringSecretStore().get("svc.com.example.ci", "secret.k")).rejects.toThrow(NO_SECRET_STORE_MESSAGE);
});
