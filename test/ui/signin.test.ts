/**
 * A sign-in from the page, end to end: the person presses Connect in Settings, the page offers
 * the sign-in page with the sentence the terminal prints and one button (opened only by the
 * person's click), the service sends the browser back to
 * the host's callback port with a code (played here, as the person's browser would), the host
 * trades it with PKCE at a real https token service, and the notch says "<title> is connected";
 * Settings then lists the connection, and Disconnect revokes it.
 *
 * The callback port is this file's own (`SVC_OAUTH_PORT`), so it never meets another file's
 * sign-in on 47812.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { afterAll, beforeAll } from "vitest";
import { writeExtension } from "../host/harness.js";
import { demoSignInManifest, freePort, startTokenService, type TokenService } from "../host-trust/token-service.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { openUi, useUiScene, openExtensionRow } from "./harness.js";

const ID = "com.example.signin";
const ACCESS = `at-${randomUUID()}`;
const REFRESH = `rt-${randomUUID()}`;
/** Shows on its blip whether a sign-in is there (every sign-in change runs it with trigger `preferences`). */
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
  tokens = await startTokenService(certificates, { access: ACCESS, refresh: REFRESH });
  callbackPort = await freePort();
}, 60_000);
afterAll(async () => {
  await tokens?.close();
  rmSync(certificates, { recursive: true, force: true });
});

const scene = useUiScene({
  setup: (world) => {
    return writeExtension(join(world.bundled, "signin"), {
      svc: demoSignInManifest(ID, tokens),
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

describe("signing in from the notch", () => {
  it('connects through the sign-in page and says "Demo is connected" in the notch', async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const account = page.locator(`[data-blip="${ID}/account"]`);
    await expect.poll(() => account.innerText()).toContain("signed out");
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Sign-in");
    expect(await card.locator(".signin").innerText()).toContain("Not connected to Demo.");
    await card.getByRole("button", { name: "Connect Demo" }).click();

    // The sign-in page is offered, opened only by the person's click.
    const link = page.locator(".open-requests a", { hasText: "Open" });
    await expect
      .poll(() => link.getAttribute("href"), { timeout: 10_000 })
      .toMatch(new RegExp(`^https://localhost:${tokens.port}/authorize\\?`));
    const opened = new URL((await link.getAttribute("href"))!);
    expect(opened.searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${callbackPort}/oauth/callback`);
    expect(opened.searchParams.get("code_challenge_method")).toBe("S256");
    tokens.challenge = opened.searchParams.get("code_challenge") ?? undefined;
    // It says what it is for and where the browser goes, with one button and nothing else to press.
    const request = page.locator(".open-requests .signin-request");
    expect(await request.locator(".prompt").innerText()).toBe(
      `Sign in to Demo for Sign-in — opens localhost:${tokens.port} in your browser`,
    );
    expect(await request.locator("a, button").count()).toBe(1);

    // The person signs in there; the service sends the browser back to the host's callback port.
    const back = await fetch(
      `http://127.0.0.1:${callbackPort}/oauth/callback?code=the-code&state=${opened.searchParams.get("state")}`,
    );
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Demo is connected");

    await expect
      .poll(() => page.locator(".notify .notify-line strong").innerText(), { timeout: 10_000 })
      .toBe("Demo is connected");
    expect(await page.locator(".notify").getAttribute("aria-live")).toBe("polite");
    await expect.poll(() => card.locator(".connections li").count(), { timeout: 10_000 }).toBe(1);
    expect(await card.getByRole("button", { name: "Connect another Demo account" }).count()).toBe(1);
    expect(await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo")).toContain(ACCESS);
    // The extension ran again and got its token.
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect.poll(() => account.innerText(), { timeout: 10_000 }).toContain("signed in");

    // Disconnect revokes the tokens at the service and forgets them.
    await page.getByRole("tab", { name: "Settings" }).click();
    await card.locator(".connections").getByRole("button", { name: "Disconnect" }).click();
    await expect
      .poll(() => card.locator(".signin").innerText(), { timeout: 10_000 })
      .toContain("Not connected to Demo.");
    expect(tokens.revoked.sort()).toEqual(["access_token", "refresh_token"]);
    expect(await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo")).toBeNull();
    await page.close();
  });
});
