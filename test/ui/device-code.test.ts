/**
 * A device-flow sign-in from the page (RFC 8628, as GitHub does it): the person presses Connect,
 * the host asks the service for a code, and the page shows the address to open and the code
 * (with Copy), as the terminal does on their own lines. Writes the screenshot.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeExtension } from "../host/harness.js";
import { demoSignInManifest, freePort, startTokenService, type TokenService } from "../host-trust/token-service.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { openExtensionRow, openUi, SCREENSHOTS, useUiScene } from "./harness.js";

const ID = "com.example.device";
const CODE = `module.exports = { default: { async update(ctx) {
  const { token } = await ctx.oauth.token();
  await ctx.emit({ key: "account", title: "Account", layout: "stat", data: { value: token ? "signed in" : "signed out" } });
  return {};
} } };`;

const session = useSessionKeyring();
let certificates: string;
let tokens: TokenService;
let callbackPort: number;
beforeAll(async () => {
  certificates = mkdtempSync(join(tmpdir(), "svc-tls-"));
  tokens = await startTokenService(certificates, { access: "at-device", refresh: "rt-device" });
  callbackPort = await freePort();
}, 60_000);
afterAll(async () => {
  await tokens?.close();
  rmSync(certificates, { recursive: true, force: true });
});

const scene = useUiScene({
  setup: (world) => {
    const svc = demoSignInManifest(ID, tokens);
    const demo = svc.oauth.demo;
    return writeExtension(join(world.bundled, "device"), {
      svc: {
        ...svc,
        title: "GitHub status",
        oauth: {
          demo: {
            ...demo,
            title: "GitHub",
            flow: "device",
            deviceAuthorizationUrl: `https://localhost:${tokens.port}/device/code`,
          },
        },
      },
      code: CODE,
    });
  },
  get env() {
    return {
      DBUS_SESSION_BUS_ADDRESS: session.bus.address,
      NODE_EXTRA_CA_CERTS: tokens.certificate,
      SVC_OAUTH_PORT: String(callbackPort),
    };
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/account`, { timeoutMs: 15_000 }),
});

describe("a device-flow sign-in in the page", () => {
  it("shows the address and the code with Copy; the terminal prints them on their own lines", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "GitHub status");
    const from = scene.host.events.length;
    await card.getByRole("button", { name: "Connect GitHub" }).click();
    const region = page.getByRole("region", { name: "sign-in code" });
    await region.waitFor();
    expect(await region.locator(".user-code").innerText()).toBe("WDJB-MJHT");
    expect(await region.getByRole("link").getAttribute("href")).toBe("https://github.com/login/device");
    expect(await region.innerText()).toContain(
      "To sign in to GitHub, open\n\nhttps://github.com/login/device\n\nand type the code\n\nWDJB-MJHT",
    );
    await region.getByRole("button", { name: /^(Copy|Copied)$/ }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "device-code-dark.png"), fullPage: false });
    // The host's event, which the terminal prints line by line.
    const shown = await scene.host.waitFor((e) => e.type === "sign-in.code" && e.extensionId === ID, { from });
    expect(shown).toMatchObject({
      title: "GitHub",
      userCode: "WDJB-MJHT",
      verificationUri: "https://github.com/login/device",
    });
    expect(tokens.requests.filter((r) => r.path === "/device/code")).toHaveLength(1);
    await page.close();
  });
});
