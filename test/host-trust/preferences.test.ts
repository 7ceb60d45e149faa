/**
 * Preferences end to end: the real host and runtime, a real gnome-keyring on a private D-Bus.
 * A password option comes from the keyring on load (never from a file); `ctx.setPreference`
 * refuses a dropdown value that is not one of its choices and a password, saves a valid one
 * and runs `update()` with trigger `preferences` on the new values; a Settings change over
 * the control channel does the same for a password.
 */
import { randomUUID } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { startHost, useHostWorld, writeExtension } from "../host/harness.js";
import { GUEST_HELPERS, hiddenLiteral, count, filesContaining, nextReport, reportOfRun } from "./fixtures.js";

const session = useSessionKeyring();
const scene = useHostWorld();
const keyring = new KeyringSecretStore();

const PREFERENCES = [
  {
    name: "region",
    title: "Region",
    type: "dropdown",
    data: [
      { title: "EU", value: "eu" },
      { title: "US", value: "us" },
    ],
  },
  { name: "token", title: "Token", type: "password" },
  { name: "city", title: "City", type: "textfield", default: "Oslo" },
];

/**
 * Reports its preferences on every run (the password only as its index in `passwords`, so it
 * never reaches a blip); at launch it also tries three changes of its own options.
 */
function prefsCode(passwords: string[]): string {
  return `${GUEST_HELPERS}
const PASSWORDS = [${passwords.map(hiddenLiteral).join(", ")}];
module.exports = { default: { async update(ctx) {
  const seen = { trigger: ctx.trigger.type, region: ctx.preferences.region, city: ctx.preferences.city, token: PASSWORDS.indexOf(ctx.preferences.token) };
  if (ctx.trigger.type === "launch") {
    seen.asia = await attempt(ctx.setPreference("region", "asia"));
    seen.password = await attempt(ctx.setPreference("token", "chosen-by-the-extension"));
    seen.us = await attempt(ctx.setPreference("region", "us"));
  }
  await report(ctx, "report", seen);
} } };`;
}

const isPreferencesRun = (e: { type: string; id?: string; trigger?: string }) =>
  e.type === "run.start" && e.id === "test.prefs" && e.trigger === "preferences";

describe("preferences through the real host", () => {
  it("passes the password from the keyring on load, refuses bad changes, and runs again with a valid one", async () => {
    const passwords = [`pw-one-${randomUUID()}`, `pw-two-${randomUUID()}`];
    // What Settings would have stored earlier: the password in the keyring, under pref.<name>.
    await keyring.set("svc.test.prefs", "pref.token", passwords[0]);
    await writeExtension(join(scene.world.bundled, "prefs"), {
      svc: { id: "test.prefs", title: "Prefs", preferences: PREFERENCES },
      code: prefsCode(passwords),
    });
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });

    expect(await nextReport(scene.host, "test.prefs/report")).toEqual({
      trigger: "launch",
      region: "eu",
      city: "Oslo",
      token: 0,
      asia: { error: '"region" should be one of its choices: eu, us' },
      password: { error: '"token" is a password option: only the person can set it, in Settings' },
      us: { ok: null },
    });
    expect(await scene.host.waitFor((e) => e.type === "preference")).toEqual({
      type: "preference",
      id: "test.prefs",
      name: "region",
      by: "extension",
    });
    await scene.host.waitFor(isPreferencesRun);
    expect(await reportOfRun(scene.host, "test.prefs/report", "preferences")).toEqual({
      trigger: "preferences",
      region: "us",
      city: "Oslo",
      token: 0,
    });
    expect(scene.host.events.find((e) => e.type === "extension.loaded" && e.reason === "preferences")).toEqual({
      type: "extension.loaded",
      id: "test.prefs",
      reason: "preferences",
    });

    const file = join(scene.world.home, "Preferences", "test.prefs.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ region: "us" });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Only the valid change made the extension run again.
    expect(count(scene.host, isPreferencesRun)).toBe(1);
    expect(count(scene.host, (e) => e.type === "preference")).toBe(1);

    // Settings (the control channel) may set the password: into the keyring, then a preferences run.
    const from = scene.host.events.length;
    expect(
      await scene.host.control({ command: "set-preference", id: "test.prefs", name: "token", value: passwords[1] }),
    ).toMatchObject({ ok: true });
    expect(await nextReport(scene.host, "test.prefs/report", from)).toEqual({
      trigger: "preferences",
      region: "us",
      city: "Oslo",
      token: 1,
    });
    expect(await keyring.get("svc.test.prefs", "pref.token")).toBe(passwords[1]);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ region: "us" });

    // Settings is held to the option's kind too, and a refused change runs nothing.
    const refused = await scene.host.control({
      command: "set-preference",
      id: "test.prefs",
      name: "region",
      value: "asia",
    });
    expect(refused).toMatchObject({ ok: false, error: '"region" should be one of its choices: eu, us' });
    expect(count(scene.host, isPreferencesRun)).toBe(2);

    for (const password of passwords) expect(await filesContaining(scene.world.home, password)).toEqual([]);
  });

  it("lets an onAction that changes an option finish before the extension is loaded with the new value", async () => {
    await writeExtension(join(scene.world.bundled, "prefs"), {
      svc: { id: "test.prefs", title: "Prefs", preferences: PREFERENCES },
      code: `${GUEST_HELPERS}
module.exports = { default: {
  async update(ctx) { await report(ctx, "report", { trigger: ctx.trigger.type, region: ctx.preferences.region }); },
  async onAction(ctx, action) {
    await ctx.setPreference("region", action.actionId);
    // Still running after the change: the reload it causes must wait for this.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await report(ctx, "switched", { to: action.actionId });
  },
} };`,
    });
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    expect(await nextReport(scene.host, "test.prefs/report")).toEqual({ trigger: "launch", region: "eu" });
    const from = scene.host.events.length;
    expect(await scene.host.control({ command: "action", blipId: "test.prefs/report", actionId: "us" })).toMatchObject({
      ok: true,
    });
    expect(await nextReport(scene.host, "test.prefs/switched", from)).toEqual({ to: "us" });
    expect(scene.host.events.slice(from).find((e) => e.type === "action")).toMatchObject({
      id: "test.prefs",
      actionId: "us",
      emitted: { "test.prefs/switched": 1 },
    });
    expect(await nextReport(scene.host, "test.prefs/report", from)).toEqual({ trigger: "preferences", region: "us" });
  });
});
