/**
 * Home Assistant end to end, as a person sets it up: the bundled extension (extensions/
 * homeassistant, built) in the real svc-host, the page in Chromium, a real Secret Service for
 * the token, and a stand-in Home Assistant on loopback (this machine may reach no LAN address)
 * answering what the extension's own recording holds (Home Assistant's documented REST answers).
 * The address is allowed through the page's prompt, the token typed into its password field, the
 * entities listed; Toggle clicked in the page reaches `POST /api/services/light/toggle` with the
 * token; a token Home Assistant then refuses is said with what to set.
 */
import { cp, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { openExtensionRow, openUi, SCREENSHOTS, useUiScene } from "./harness.js";

const session = useSessionKeyring();
const HA = join(REPO, "extensions", "homeassistant");
const ID = "app.svc.homeassistant";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.ha-test";

interface Exchange {
  method: string;
  url: string;
  response: { status: number; headers: [string, string][]; body: string };
}

/** What the stand-in was asked: method, path, the Authorization header and the body. */
const asked: { method: string; path: string; authorization?: string; body: string }[] = [];
let server: Server;
let port = 0;
/** When set, every answer is this 401, as Home Assistant answers a revoked token. */
let revoked = false;

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  const recording = JSON.parse(await readFile(join(HA, "test", "recordings", "entities.json"), "utf8")) as {
    exchanges: Exchange[];
  };
  // The kitchen light is on until a toggle; its two recorded answers are "on" and "off".
  let lightOn = true;
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    asked.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body });
    if (revoked || req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { "content-type": "text/plain; charset=utf-8" }).end("401: Unauthorized");
      return;
    }
    const matches = recording.exchanges.filter((e) => e.method === req.method && new URL(e.url).pathname === req.url);
    if (req.method === "POST" && req.url === "/api/services/light/toggle") lightOn = !lightOn;
    const answer = req.url === "/api/states/light.kitchen" && !lightOn ? matches[1] : matches[0];
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.response.status, Object.fromEntries(answer.response.headers)).end(answer.response.body);
  });
  port = await new Promise<number>((done) =>
    server.listen(0, "127.0.0.1", () => done((server.address() as AddressInfo).port)),
  );
});
afterAll(() => server.close());

const scene = useUiScene({
  setup: async (world) => {
    await cp(join(HA, "package.json"), join(world.bundled, "homeassistant", "package.json"));
    await cp(join(HA, "dist"), join(world.bundled, "homeassistant", "dist"), { recursive: true });
  },
  get env() {
    return { DBUS_SESSION_BUS_ADDRESS: session.bus.address };
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/setup`, { timeoutMs: 20_000 }),
});

describe("Home Assistant, set up in the page", { timeout: 90_000 }, () => {
  it("allowed address, token in the secret store, entities; Toggle reaches Home Assistant with the token", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Home Assistant");
    const address = card.getByLabel("Home Assistant address");
    await address.fill(`http://127.0.0.1:${port}`);
    await address.press("Tab");
    const prompt = card.getByRole("alertdialog", { name: "Allow a server" });
    await prompt.getByRole("button", { name: "Allow", exact: true }).click();
    await scene.host.waitFor((e) => e.type === "blip" && e.id === `${ID}/setup` && /token/.test(e.blip.data.value));
    const token = card.getByLabel("Long-lived access token");
    await token.fill(TOKEN);
    await token.press("Tab");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === `${ID}/setup` && /entities/.test(e.blip.data.value));
    const entities = card.getByLabel("Entities");
    await entities.fill("light.kitchen\nsensor.living_room_temperature");
    await entities.press("Tab");

    await page.getByRole("tab", { name: "Blips" }).click();
    const list = page.locator(`[data-blip="${ID}/entities"]`);
    await list.getByText("Living room temperature").waitFor({ timeout: 20_000 });
    await expect.poll(() => list.innerText()).toMatch(/Kitchen[\s\S]*On[\s\S]*21\.4 °C/);
    await page.screenshot({ path: join(SCREENSHOTS, "homeassistant-dark.png") });
    expect(asked.filter((a) => a.method === "GET").every((a) => a.authorization === `Bearer ${TOKEN}`)).toBe(true);

    await list.locator("button", { hasText: "Toggle" }).click();
    await expect.poll(() => list.innerText(), { timeout: 15_000 }).toMatch(/Kitchen[\s\S]*Off/);
    expect(asked.filter((a) => a.method === "POST")).toEqual([
      {
        method: "POST",
        path: "/api/services/light/toggle",
        authorization: `Bearer ${TOKEN}`,
        body: '{"entity_id":"light.kitchen"}',
      },
    ]);
    await page.close();
  });

  it("a token Home Assistant refuses (401) is said, with what to set", async () => {
    revoked = true;
    const from = scene.host.events.length;
    await scene.host.control({ command: "run", id: ID });
    const refused = await scene.host.waitFor((e) => e.type === "blip" && e.id === `${ID}/entities`, { from });
    expect(refused.blip.state).toBe("failure");
    expect(refused.blip.data).toEqual({
      value: "Token refused (401)",
      label: "Make a new long-lived token in Home Assistant (your profile → Security) and set it in Settings",
    });
  });
});
