/**
 * A device-flow sign-in (RFC 8628) completed end to end through the real host and runtime, the
 * page in Debian's Chromium, and a real authorization server: oidc-provider's device flow over
 * https on loopback (a self-signed certificate the host trusts through NODE_EXTRA_CA_CERTS, as
 * a manifest takes https addresses only). The person presses the blip's Sign in; the extension
 * calls `ctx.oauth.connect()`; the page shows the code and the address; the person types the
 * code at oidc-provider's own pages (driven over HTTP, as a browser would); the host's poll gets
 * the token; the extension's fetch reaches a loopback resource server with it as a bearer, and
 * that server asks oidc-provider whether it honours the token. The refresh token and the device
 * code never reach the extension, and no token is written to a file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { writeExtension } from "../host/harness.js";
import { filesContaining } from "../host-trust/fixtures.js";
import { startAuthorizationServer, type AuthorizationServer } from "../trust/authorization-server.js";
import { signInInBrowser } from "../trust/browser.js";
import { selfSignedCertificate, type Certificate } from "../trust/certificate.js";
import { freePort } from "../trust/free-port.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { openUi, SCREENSHOTS, useUiScene } from "./harness.js";

const ID = "com.example.devicesignin";

/** Signed out: a blip with the Sign in button. Signed in: what the resource server said. */
const code = (resource: string) => `module.exports = { default: {
  async update(ctx) {
    const { token } = await ctx.oauth.token();
    if (!token) {
      await ctx.emit({ key: "account", title: "Projects", layout: "stat", state: "warning",
        data: { value: "signed out" }, actions: [{ id: "svc.connect", title: "Sign in", role: "primary" }] });
      return {};
    }
    const answer = await fetch(${JSON.stringify(resource)}, { headers: { authorization: "Bearer " + token } });
    const body = await answer.json();
    // What the extension was handed, for the test: never the refresh token nor the device code.
    ctx.log.info("handed", JSON.stringify(Object.keys(await ctx.oauth.token()).sort()), token.length);
    await ctx.emit({ key: "account", title: "Projects", layout: "stat",
      data: { value: answer.status === 200 ? body.projects + " projects" : "refused " + answer.status } });
    return {};
  },
  async onAction(ctx, action) {
    if (action.actionId === "svc.connect") await ctx.oauth.connect();
  },
} };`;

/** A resource server on loopback: answers only a bearer token the authorization server honours. */
class ResourceServer {
  server!: Server;
  url = "";
  readonly seen: { authorization: string | undefined; status: number }[] = [];

  async start(as: () => AuthorizationServer): Promise<void> {
    this.server = createServer((req, res) => {
      const authorization = req.headers.authorization;
      const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
      void (token === undefined ? Promise.resolve(false) : as().honours(token)).then((ok) => {
        this.seen.push({ authorization, status: ok ? 200 : 401 });
        res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        res.end(JSON.stringify(ok ? { projects: 3 } : { error: "invalid_token" }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/projects`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const session = useSessionKeyring();
let folder: string;
let tls: Certificate;
let as: AuthorizationServer;
const resource = new ResourceServer();
let callbackPort: number;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "svc-tls-"));
  tls = selfSignedCertificate(folder);
  as = await startAuthorizationServer({ redirectUri: "http://127.0.0.1:9/unused", deviceFlow: true, tls });
  await resource.start(() => as);
  callbackPort = await freePort();
}, 60_000);
afterAll(async () => {
  await as?.stop();
  await resource.close();
  rmSync(folder, { recursive: true, force: true });
});

const scene = useUiScene({
  setup: (world) =>
    writeExtension(join(world.bundled, "device-sign-in"), {
      svc: {
        id: ID,
        title: "Projects",
        permissions: { network: ["localhost", new URL(resource.url).host] },
        oauth: {
          demo: {
            title: "Demo",
            flow: "device",
            // No authorizeUrl: a device sign-in does not need one.
            deviceAuthorizationUrl: as.deviceAuthorizationUrl,
            tokenUrl: as.tokenUrl,
            revokeUrl: as.revokeUrl,
            clientId: as.clientId,
            scopes: ["api", "offline_access"],
          },
        },
      },
      code: code(resource.url),
    }),
  get env() {
    return {
      DBUS_SESSION_BUS_ADDRESS: session.bus.address,
      NODE_EXTRA_CA_CERTS: tls.certificate,
      SVC_OAUTH_PORT: String(callbackPort),
    };
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/account`, { timeoutMs: 15_000 }),
});

describe("a device sign-in through the real host, against oidc-provider's device flow", () => {
  it("ends with words when the person cancels at the service (access_denied), and keeps nothing", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const blip = page.locator(`[data-blip="${ID}/account"]`).first();
    const from = scene.host.events.length;
    await blip.getByRole("button", { name: "Sign in" }).click();
    const region = page.getByRole("region", { name: "sign-in code" });
    const userCode = await region.locator(".user-code").innerText();
    const trust = readFileSync(tls.certificate, "utf8");
    await signInInBrowser(`${as.issuer}/device`, { login: "alice", userCode, deny: true, trust });
    expect(await scene.host.waitFor((e) => e.type === "notify", { from, timeoutMs: 30_000 })).toMatchObject({
      extensionId: ID,
      title: "Demo sign-in did not finish: access was not granted",
    });
    await region.waitFor({ state: "detached" });
    expect(await blip.getByText("signed out").count()).toBe(1);
    expect(as.grants).toEqual([]);
    expect(resource.seen).toEqual([]);
    expect(await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo")).toBeNull();
    await page.close();
  });

  it("shows the code in the page, gets the token once the person types it, and the extension's bearer fetch is honoured", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const blip = page.locator(`[data-blip="${ID}/account"]`).first();
    await blip.getByText("signed out").waitFor();

    // The person presses Sign in on the blip; the extension calls ctx.oauth.connect().
    const from = scene.host.events.length;
    await blip.getByRole("button", { name: "Sign in" }).click();
    const region = page.getByRole("region", { name: "sign-in code" });
    await region.waitFor();
    const userCode = await region.locator(".user-code").innerText();
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const address = `${as.issuer}/device`;
    expect(await region.getByRole("link").getAttribute("href")).toBe(address);
    expect(await region.innerText()).toContain(
      `To sign in to Demo, open\n\n${address}\n\nand type the code\n\n${userCode}`,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "device-sign-in-oidc-dark.png"), fullPage: false });
    expect(await scene.host.waitFor((e) => e.type === "sign-in.code", { from })).toMatchObject({
      extensionId: ID,
      title: "Demo",
      userCode,
      verificationUri: address,
    });

    // At the service's own pages: the code, the login, the consent.
    const typed = await signInInBrowser(address, {
      login: "alice",
      userCode,
      trust: readFileSync(tls.certificate, "utf8"),
    });
    expect(typed.status).toBe(200);

    // The host's next poll gets the token (at the service's interval: waited for, not slept).
    expect(await scene.host.waitFor((e) => e.type === "notify", { from, timeoutMs: 30_000 })).toMatchObject({
      extensionId: ID,
      title: "Demo is connected",
    });
    await blip.getByText("3 projects").waitFor({ timeout: 15_000 });
    expect(await region.count()).toBe(0);
    expect(as.grants).toEqual(["urn:ietf:params:oauth:grant-type:device_code"]);
    expect(resource.seen.map((s) => s.status)).toEqual([200]);

    // The bearer is the access token the host keeps in the keyring; the extension was handed
    // that and its connection, nothing else.
    const stored = JSON.parse((await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo"))!) as unknown;
    const text = JSON.stringify(stored);
    const bearer = resource.seen[0].authorization!.slice("Bearer ".length);
    expect(text).toContain(bearer);
    const refresh = /"refresh(?:Token|_token)":"([^"]+)"/.exec(text)?.[1];
    expect(refresh).toEqual(expect.any(String));
    const handed = await scene.host.waitFor((e) => e.type === "log" && String(e.message).startsWith("handed"), {
      from,
    });
    expect(handed.message).toBe(`handed ["connection","token"] ${bearer.length}`);
    const said = JSON.stringify(scene.host.events.filter((e) => e.extensionId === ID));
    expect(said).not.toContain(refresh);
    expect(said).not.toContain(bearer);
    for (const token of [bearer, refresh!]) expect(await filesContaining(scene.world.home, token)).toEqual([]);
    await page.close();
  });
});
