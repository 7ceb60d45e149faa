/**
 * A server the person grants, in the real page against the real host: typing the address of a
 * `url` option asks "Let <title> connect to …?" with the install review's mark; nothing is set
 * or reachable until Allow; after Allow the extension fetches from exactly that server. Writes
 * the prompt's screenshot.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeExtension } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { openExtensionRow, openUi, SCREENSHOTS, useUiScene } from "./harness.js";

const session = useSessionKeyring();
const ID = "com.example.homeassistant";

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((_req, res) => res.end("21.5 °C"));
  port = await new Promise<number>((done) =>
    server.listen(0, "127.0.0.1", () => done((server.address() as AddressInfo).port)),
  );
});
afterAll(() => server.close());

/** Shows what its server answered, or the fence's refusal. */
const CODE = `
module.exports = { default: { async update(ctx) {
  const server = ctx.preferences.server;
  let value = "no server";
  if (server) value = await fetch(server).then((r) => r.text(), (e) => "refused");
  await ctx.emit({ key: "temp", title: "Living room", layout: "stat", data: { value } });
  return {};
} } };`;

const scene = useUiScene({
  setup: async (world) => {
    await writeExtension(join(world.bundled, "homeassistant"), {
      svc: {
        id: ID,
        title: "Home Assistant",
        interval: "1h",
        preferences: [
          { name: "server", title: "Server address", type: "url", placeholder: "http://192.168.1.20:8123" },
        ],
      },
      code: CODE,
    });
  },
  get env() {
    return { DBUS_SESSION_BUS_ADDRESS: session.bus.address };
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/temp`, { timeoutMs: 15_000 }),
});

describe("a server the person grants", { timeout: 60_000 }, () => {
  it("asks before a url option's server is set, then the extension reaches exactly it", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const shown = (text: string, from = 0) =>
      scene.host.waitFor((e) => e.type === "blip" && e.id === `${ID}/temp` && e.blip.data.value === text, {
        from,
        timeoutMs: 15_000,
      });
    await shown("no server");
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Home Assistant");
    await card.getByLabel("Server address").fill(`http://127.0.0.1:${port}/api/temp`);
    await card.getByLabel("Server address").press("Tab");
    const prompt = card.getByRole("alertdialog", { name: "Allow a server" });
    await prompt.waitFor();
    expect(await prompt.innerText()).toBe(
      `Let Home Assistant connect to 127.0.0.1:${port} (http, not encrypted)?\n\n` +
        `It may then connect to http://127.0.0.1:${port}: that scheme, host and port only.\n\n` +
        `⚠ programs on your own computer (loopback)\n\nAllow Don't allow`,
    );
    await prompt.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "grant-prompt-dark.png"), fullPage: false });
    // Nothing was set before the answer: no run with trigger preferences.
    expect(scene.host.events.filter((e) => e.type === "run.start" && e.trigger === "preferences")).toEqual([]);
    const allowing = scene.host.events.length;
    await prompt.getByRole("button", { name: "Allow", exact: true }).click();
    await expect
      .poll(() => card.locator(".pref [role=status]").allInnerTexts())
      .toEqual([`saved; it may connect to http://127.0.0.1:${port}`]);
    await shown("21.5 °C", allowing);
    await page.close();
  });
});
