/**
 * A machine with no secret store (no D-Bus session at all, like a bare server): the host runs,
 * blips work, it says once why secrets are refused, and every call that needs the store
 * (secrets, a password option, sign-ins) answers that message. Nothing goes to a file instead.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHost, writeExtension, useHostWorld } from "../host/harness.js";
import { LINUX_SECRET_SERVICE_FIX } from "../../host/src/app/trust.js";
import { GUEST_HELPERS, hiddenLiteral, count, filesContaining, nextReport, reportOfRun } from "./fixtures.js";

const NO_STORE = "no secret store available: install and unlock a Secret Service such as gnome-keyring";

const scene = useHostWorld();

const SVC = {
  id: "test.nostore",
  title: "No store",
  preferences: [
    { name: "token", title: "Token", type: "password" },
    { name: "city", title: "City", type: "textfield", default: "Oslo" },
  ],
  permissions: { network: ["auth.example.com"] },
  oauth: {
    demo: {
      title: "Demo",
      authorizeUrl: "https://auth.example.com/authorize",
      tokenUrl: "https://auth.example.com/token",
      clientId: "svc-test",
    },
  },
};

const CODE = `${GUEST_HELPERS}
module.exports = { default: { async update(ctx) {
  const seen = { trigger: ctx.trigger.type, city: ctx.preferences.city, hasToken: "token" in ctx.preferences };
  if (ctx.trigger.type === "launch") {
    seen.set = await attempt(ctx.secrets.set("apiKey", ${hiddenLiteral("plain-text-never")}));
    seen.get = await attempt(ctx.secrets.get("apiKey"));
    seen.connections = await attempt(ctx.oauth.connections());
    seen.connect = await attempt(ctx.oauth.connect());
    seen.setCity = await attempt(ctx.setPreference("city", "Bergen"));
  }
  await report(ctx, "report", seen);
} } };`;

describe("without a secret store", () => {
  it("runs, says why once, and refuses secrets, password options and sign-ins with that message", async () => {
    await writeExtension(join(scene.world.bundled, "nostore"), { svc: SVC, code: CODE });
    // The harness passes no DBUS_SESSION_BUS_ADDRESS: there is no session bus at all.
    scene.host = await startHost(scene.world);

    const said = await scene.host.waitFor((e) => e.type === "secret-store");
    expect(said).toMatchObject({
      type: "secret-store",
      available: false,
      error: NO_STORE,
      fix: LINUX_SECRET_SERVICE_FIX,
    });
    expect(said.detail).toMatch(/DBUS_SESSION_BUS_ADDRESS|D-?Bus/i);
    expect(count(scene.host, (e) => e.type === "secret-store")).toBe(1);

    expect(await nextReport(scene.host, "test.nostore/report")).toEqual({
      trigger: "launch",
      city: "Oslo",
      hasToken: false,
      setCity: { ok: null },
      set: { error: NO_STORE },
      get: { error: NO_STORE },
      connections: { error: NO_STORE },
      connect: { error: NO_STORE },
    });
    // The password option could not be read: the extension loaded on its defaults, and nothing
    // repeats what was said once at start (on every load, for every password option).
    expect(
      scene.host.events.filter((e) => e.type === "log" && e.extensionId === "test.nostore" && e.level === "warn"),
    ).toEqual([]);
    // Options that are not passwords still work, file-backed, and run the extension again.
    expect(await reportOfRun(scene.host, "test.nostore/report", "preferences")).toEqual({
      trigger: "preferences",
      city: "Bergen",
      hasToken: false,
    });

    // Settings cannot keep a password either, and does not fall back to the file.
    const refused = await scene.host.control({
      command: "set-preference",
      id: "test.nostore",
      name: "token",
      value: "pw-nowhere",
    });
    expect(refused).toMatchObject({ ok: false, error: NO_STORE });
    expect(JSON.parse(await readFile(join(scene.world.home, "Preferences", "test.nostore.json"), "utf8"))).toEqual({
      city: "Bergen",
    });
    expect(await filesContaining(scene.world.home, "pw-nowhere")).toEqual([]);
    expect(await filesContaining(scene.world.home, "plain-text-never")).toEqual([]);
  });
});
