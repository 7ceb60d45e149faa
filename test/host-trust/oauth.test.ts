/**
 * `ctx.oauth` end to end through the real host: the sign-in page goes to the host's openURL,
 * the browser's return (played by this test) reaches the host's callback port (47812 in use;
 * here a free port of this file's own through SVC_OAUTH_PORT, so test files never collide), the code
 * is traded at a real https token endpoint (a self-signed certificate the host process trusts
 * through NODE_EXTRA_CA_CERTS), the host says "Demo is connected", runs the extension with
 * trigger `preferences`, and the tokens stay in the keyring, never in a file.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeEvent } from "../../host/src/display/index.js";
import type { HostEvent } from "../../host/src/events/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { startHost, useHostWorld, writeExtension } from "../host/harness.js";
import { demoSignInManifest, freePort, startTokenService, type TokenService } from "./token-service.js";
import { filesContaining, nextReport, reportOfRun, signInHelpers } from "./fixtures.js";

const ACCESS = `at-${randomUUID()}`;
const REFRESH = `rt-${randomUUID()}`;

const session = useSessionKeyring();
let certificates: string;
let tokens: TokenService;
let callbackPort: number;
const scene = useHostWorld();

beforeAll(async () => {
  certificates = mkdtempSync(join(tmpdir(), "svc-tls-"));
  tokens = await startTokenService(certificates, { access: ACCESS, refresh: REFRESH });
  callbackPort = await freePort();
}, 120_000);
afterAll(async () => {
  await tokens?.close();
  rmSync(certificates, { recursive: true, force: true });
});

/** Connects at launch; on other runs reports its connections and whether the token came back. */
const CODE = `${signInHelpers(ACCESS)}
module.exports = { default: { async update(ctx) {
  const trigger = ctx.trigger.type;
  if (trigger === "launch") return report(ctx, "report", { trigger, connect: await attempt(ctx.oauth.connect()) });
  if (trigger === "manual") return report(ctx, "report", { trigger, disconnect: await attempt(ctx.oauth.disconnect()) });
  const connections = list(await attempt(ctx.oauth.connections()));
  await report(ctx, "report", {
    trigger,
    connections: connections.map((c) => ({ scopes: c.scopes, needsReconnect: c.needsReconnect, keys: Object.keys(c).sort() })),
    token: shownToken(await attempt(ctx.oauth.token())),
  });
} } };`;

describe("ctx.oauth through the real host", () => {
  it("signs in with PKCE, says it is connected, runs the extension, and keeps the tokens in the keyring only", async () => {
    const base = `https://localhost:${tokens.port}`;
    await writeExtension(join(scene.world.bundled, "signin"), {
      svc: demoSignInManifest("test.signin", tokens),
      code: CODE,
    });
    scene.host = await startHost(scene.world, {
      DBUS_SESSION_BUS_ADDRESS: session.bus.address,
      NODE_EXTRA_CA_CERTS: tokens.certificate,
      SVC_OAUTH_PORT: String(callbackPort),
    });

    expect(await nextReport(scene.host, "test.signin/report")).toEqual({ trigger: "launch", connect: { ok: null } });
    const openEvent = await scene.host.waitFor((e) => e.type === "openURL");
    const opened = new URL(openEvent.url as string);
    // The terminal says what the page is for, and gives the whole address a line of its own.
    expect(openEvent.signIn).toEqual({ service: "Demo", extension: "Sign-in" });
    expect(describeEvent(openEvent as unknown as HostEvent, 0, "info")).toEqual([
      `Sign in to Demo for Sign-in — opens localhost:${tokens.port} in your browser:`,
      openEvent.url,
    ]);
    expect(opened.origin + opened.pathname).toBe(`${base}/authorize`);
    expect(
      Object.fromEntries([...opened.searchParams].filter(([name]) => !["state", "code_challenge"].includes(name))),
    ).toEqual({
      response_type: "code",
      client_id: "svc-test",
      redirect_uri: `http://127.0.0.1:${callbackPort}/oauth/callback`,
      code_challenge_method: "S256",
      scope: "read",
    });
    tokens.challenge = opened.searchParams.get("code_challenge") ?? undefined;

    // The person signs in; the service sends the browser back to the host's callback port.
    const from = scene.host.events.length;
    const page = await fetch(
      `http://127.0.0.1:${callbackPort}/oauth/callback?code=the-code&state=${opened.searchParams.get("state")}`,
    );
    expect(page.status).toBe(200);
    expect(await scene.host.waitFor((e) => e.type === "notify", { from })).toEqual({
      type: "notify",
      extensionId: "test.signin",
      from: { name: "Sign-in" },
      title: "Demo is connected",
    });
    expect(await reportOfRun(scene.host, "test.signin/report", "preferences", from)).toEqual({
      trigger: "preferences",
      connections: [
        { scopes: ["read"], needsReconnect: false, keys: ["connectedAt", "id", "needsReconnect", "scopes"] },
      ],
      token: "the one issued",
    });
    const stored = await new KeyringSecretStore().get("svc.test.signin", "oauth.demo");
    expect(stored).toContain(ACCESS);
    expect(stored).toContain(REFRESH);
    expect(await filesContaining(scene.world.home, ACCESS)).toEqual([]);
    expect(await filesContaining(scene.world.home, REFRESH)).toEqual([]);

    // Disconnecting revokes both tokens at the service, forgets them, and runs the extension again.
    const before = scene.host.events.length;
    await scene.host.control({ command: "run", id: "test.signin" });
    expect(await reportOfRun(scene.host, "test.signin/report", "manual", before)).toEqual({
      trigger: "manual",
      disconnect: { ok: null },
    });
    expect(await reportOfRun(scene.host, "test.signin/report", "preferences", before)).toEqual({
      trigger: "preferences",
      connections: [],
      token: null,
    });
    expect(tokens.revoked.sort()).toEqual(["access_token", "refresh_token"]);
    expect(await new KeyringSecretStore().get("svc.test.signin", "oauth.demo")).toBeNull();
  });
});
