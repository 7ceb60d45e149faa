import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { startHost, writeExtension, useHostWorld } from "./harness.js";

const scene = useHostWorld();

describe("host requests from extensions", () => {
  it("shows notify and openURL, answers workingHours with none, refuses secrets without a secret store, and saves a preference", async () => {
    await writeExtension(join(scene.world.bundled, "caller"), {
      svc: {
        id: "test.caller",
        title: "Caller",
        preferences: [{ name: "city", title: "City", type: "textfield", default: "Oslo" }],
      },
      code: `
const attempt = (p) => p.then(() => "ok", (e) => e.message);
module.exports = { default: { async update(ctx) {
  await ctx.notify("Hello", "from an extension");
  await ctx.openURL("https://example.com/x");
  const hours = await ctx.workingHours();
  const secret = await attempt(ctx.secrets.get("token"));
  const pref = ctx.trigger.type === "launch" ? await attempt(ctx.setPreference("city", "Bergen")) : "not asked";
  await ctx.emit({ key: "report", title: "Report", layout: "stat",
    data: { value: JSON.stringify({ trigger: ctx.trigger.type, city: ctx.preferences.city, hours: hours === undefined ? "none" : hours, secret, pref }) } });
} } };`,
    });
    scene.host = await startHost(scene.world);
    expect(await scene.host.waitFor((e) => e.type === "notify")).toEqual({
      type: "notify",
      extensionId: "test.caller",
      from: { name: "Caller" },
      title: "Hello",
      body: "from an extension",
    });
    expect(await scene.host.waitFor((e) => e.type === "openURL")).toEqual({
      type: "openURL",
      extensionId: "test.caller",
      url: "https://example.com/x",
    });
    const report = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.caller/report");
    // The harness gives the host no D-Bus session: no secret store (test/host-trust has the keyring cases).
    expect(JSON.parse(report.blip.data.value)).toEqual({
      trigger: "launch",
      city: "Oslo",
      hours: "none",
      secret: "no secret store available: install and unlock a Secret Service such as gnome-keyring",
      pref: "ok",
    });
    const rerun = await scene.host.waitFor(
      (e) =>
        e.type === "blip" && e.id === "test.caller/report" && JSON.parse(e.blip.data.value).trigger === "preferences",
    );
    expect(JSON.parse(rerun.blip.data.value)).toMatchObject({ city: "Bergen", pref: "not asked" });
  });
});
