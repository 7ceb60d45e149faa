/**
 * A sign-in's tokens go only where they were issued. The real host signs in at token service A
 * (https on loopback, as in oauth.test.ts) and renews there; then an update, installed with the
 * real `svc-host install`, moves `tokenUrl` to service B. The stored connection is dropped with a
 * log line that says why, the extension is asked to sign in again, and B never receives a token:
 * every request it got is recorded, and there are none.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { writeSvc } from "../trust/svc-package.js";
import { startHost, useHostWorld, type World } from "../host/harness.js";
import { demoSignInManifest, freePort, startTokenService, type TokenService } from "./token-service.js";
import { cliEnv, nextReport, reportOfRun, signInHelpers, svcHostCli } from "./fixtures.js";

const ACCESS = `at-${randomUUID()}`;
const REFRESH = `rt-${randomUUID()}`;
const ID = "com.example.signin";

const session = useSessionKeyring();
const scene = useHostWorld();
let certificates: string;
let serviceA: TokenService;
let serviceB: TokenService;
let callbackPort: number;
/** Both services' certificates: the host trusts B as much as A, so only svc's own rule keeps tokens from B. */
let trusted: string;

beforeAll(async () => {
  certificates = mkdtempSync(join(tmpdir(), "svc-tls-"));
  // A minute to live: every token() renews first (within five minutes of expiry), at the token address.
  serviceA = await startTokenService(join(certificates), { access: ACCESS, refresh: REFRESH, expiresIn: 60 });
  const second = join(certificates, "b");
  mkdirSync(second);
  serviceB = await startTokenService(second, { access: "at-b", refresh: "rt-b", expiresIn: 60 });
  trusted = join(certificates, "both.pem");
  writeFileSync(trusted, readFileSync(serviceA.certificate, "utf8") + readFileSync(serviceB.certificate, "utf8"));
  callbackPort = await freePort();
}, 120_000);
afterAll(async () => {
  await serviceA?.close();
  await serviceB?.close();
  rmSync(certificates, { recursive: true, force: true });
});

/** Signs in when it has no connection; otherwise reports its connections and whether the token came back. */
const CODE = `${signInHelpers(ACCESS)}
module.exports = { default: { async update(ctx) {
  const trigger = ctx.trigger.type;
  const connections = list(await attempt(ctx.oauth.connections()));
  if (connections.length === 0) return report(ctx, "report", { trigger, connect: await attempt(ctx.oauth.connect()) });
  await report(ctx, "report", { trigger, connections: connections.length, token: shownToken(await attempt(ctx.oauth.token())) });
} } };`;

/** Installs the extension pointing at `tokenService` for tokens (and at A for the rest), as `version`. */
async function install(world: World, version: string, tokenService: TokenService): Promise<void> {
  const svc = demoSignInManifest(ID, serviceA);
  svc.oauth.demo.tokenUrl = `https://localhost:${tokenService.port}/token`;
  const file = join(world.root, `signin-${version}.svc`);
  await writeSvc(file, {
    "package.json": JSON.stringify({ name: "signin", version, main: "dist/index.js", svc }),
    "dist/index.js": CODE,
  });
  const env = cliEnv(world, session.bus.address);
  const installed = await svcHostCli(env, ["install", file, "--yes"]);
  expect(installed).toMatchObject({ code: 0, stderr: "" });
  // An update that moves an address is staged until the person accepts its diff (signing's rule).
  if (version === "1.0.0") return;
  expect(installed.stdout).toContain(`Staged, not installed: Sign-in ${version} can do more than the installed`);
  expect(await svcHostCli(env, ["accept", ID, "--yes"])).toMatchObject({ code: 0, stderr: "" });
}

describe("OAuth tokens bound to their address", { timeout: 120_000 }, () => {
  it("never sends a token issued by A to B after an update moves tokenUrl", async () => {
    scene.host = await startHost(scene.world, {
      DBUS_SESSION_BUS_ADDRESS: session.bus.address,
      NODE_EXTRA_CA_CERTS: trusted,
      SVC_OAUTH_PORT: String(callbackPort),
    });
    await install(scene.world, "1.0.0", serviceA);
    expect(await nextReport(scene.host, `${ID}/report`)).toEqual({ trigger: "launch", connect: { ok: null } });
    const opened = new URL((await scene.host.waitFor((e) => e.type === "openURL")).url as string);
    serviceA.challenge = opened.searchParams.get("code_challenge") ?? undefined;
    const signedIn = scene.host.events.length;
    const page = await fetch(
      `http://127.0.0.1:${callbackPort}/oauth/callback?code=the-code&state=${opened.searchParams.get("state")}`,
    );
    expect(page.status).toBe(200);
    // The run after the sign-in renews at A (the token had a minute left) and gets it.
    expect(await reportOfRun(scene.host, `${ID}/report`, "preferences", signedIn)).toEqual({
      trigger: "preferences",
      connections: 1,
      token: "the one issued",
    });
    expect(serviceA.requests.map((r) => [r.path, r.grant])).toEqual([
      ["/token", "authorization_code"],
      ["/token", "refresh_token"],
    ]);
    expect(await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo")).toContain(REFRESH);

    // The update moves tokenUrl to B. Its first run finds no connection and asks to sign in again.
    const updated = scene.host.events.length;
    await install(scene.world, "1.1.0", serviceB);
    expect(await reportOfRun(scene.host, `${ID}/report`, "launch", updated)).toEqual({
      trigger: "launch",
      connect: { ok: null },
    });
    expect(
      await scene.host.waitFor((e) => e.type === "log" && e.extensionId === ID && e.level === "warn", {
        from: updated,
      }),
    ).toMatchObject({
      message: `Demo: 1 sign-in dropped, its tokens not sent: the extension changed its token address https://localhost:${serviceA.port}/token → https://localhost:${serviceB.port}/token since you signed in; sign in again`,
    });
    expect(serviceB.requests).toEqual([]);
    expect(serviceA.requests).toHaveLength(2);
    expect(await new KeyringSecretStore().get(`svc.${ID}`, "oauth.demo")).toBeNull();
  });
});
