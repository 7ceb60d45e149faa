/**
 * `ctx.oauth` end to end through the real host: the sign-in page goes to the host's openURL,
 * the browser's return (played by this test) reaches the host's callback port 47812, the code
 * is traded at a real https token endpoint (a self-signed certificate the host process trusts
 * through NODE_EXTRA_CA_CERTS), the host says "Demo is connected", runs the extension with
 * trigger `preferences`, and the tokens stay in the keyring, never in a file.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { startHost, useHostWorld, writeExtension } from "../host/harness.js";
import { GUEST_HELPERS, hiddenLiteral, filesContaining, nextReport, reportOfRun } from "./fixtures.js";

const ACCESS = `at-${randomUUID()}`;
const REFRESH = `rt-${randomUUID()}`;

/** A token endpoint that checks PKCE against the challenge the sign-in page carried, and a revoke endpoint. */
interface TokenService {
  port: number;
  certificate: string;
  challenge?: string;
  revoked: string[];
  close(): Promise<void>;
}

async function startTokenService(folder: string): Promise<TokenService> {
  const key = join(folder, "key.pem");
  const certificate = join(folder, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  const service: TokenService = { port: 0, certificate, revoked: [], close: async () => {} };
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(certificate) }, (request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const form = new URLSearchParams(body);
      const json = (status: number, value: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (request.url === "/revoke") {
        service.revoked.push(form.get("token_type_hint") ?? "?");
        return void response.writeHead(200).end();
      }
      const verifier = form.get("code_verifier") ?? "";
      const proof = createHash("sha256").update(verifier).digest("base64url");
      if (request.url !== "/token" || form.get("code") !== "the-code" || proof !== service.challenge) return json(400, { error: "invalid_grant" });
      json(200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "Bearer", expires_in: 3600, scope: "read" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service.port = (server.address() as { port: number }).port;
  service.close = () => new Promise((resolve) => server.close(() => resolve()));
  return service;
}

const session = useSessionKeyring();
let certificates: string;
let tokens: TokenService;
const scene = useHostWorld();

beforeAll(async () => {
  certificates = mkdtempSync(join(tmpdir(), "svc-tls-"));
  tokens = await startTokenService(certificates);
}, 120_000);
afterAll(async () => {
  await tokens?.close();
  rmSync(certificates, { recursive: true, force: true });
});

/** Connects at launch; on other runs reports its connections and whether the token came back. */
const CODE = `${GUEST_HELPERS}
const ACCESS = ${hiddenLiteral(ACCESS)};
const list = (r) => (r.ok ? (Array.isArray(r.ok) ? r.ok : r.ok.connections) : r);
module.exports = { default: { async update(ctx) {
  const trigger = ctx.trigger.type;
  if (trigger === "launch") return report(ctx, "report", { trigger, connect: await attempt(ctx.oauth.connect()) });
  if (trigger === "manual") return report(ctx, "report", { trigger, disconnect: await attempt(ctx.oauth.disconnect()) });
  const connections = list(await attempt(ctx.oauth.connections()));
  const token = await attempt(ctx.oauth.token());
  const value = token.ok && (typeof token.ok === "object" ? token.ok.token : token.ok);
  await report(ctx, "report", {
    trigger,
    connections: connections.map((c) => ({ scopes: c.scopes, needsReconnect: c.needsReconnect, keys: Object.keys(c).sort() })),
    token: value === ACCESS ? "the one issued" : value,
  });
} } };`;

describe("ctx.oauth through the real host", () => {
  it("signs in with PKCE, says it is connected, runs the extension, and keeps the tokens in the keyring only", async () => {
    const base = `https://localhost:${tokens.port}`;
    await writeExtension(join(scene.world.bundled, "signin"), {
      svc: {
        id: "test.signin",
        title: "Sign-in",
        permissions: { network: ["localhost"] },
        oauth: { demo: { title: "Demo", authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, revokeUrl: `${base}/revoke`, clientId: "svc-test", scopes: ["read"] } },
      },
      code: CODE,
    });
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address, NODE_EXTRA_CA_CERTS: tokens.certificate });

    expect(await nextReport(scene.host, "test.signin/report")).toEqual({ trigger: "launch", connect: { ok: null } });
    const opened = new URL((await scene.host.waitFor((e) => e.type === "openURL")).url as string);
    expect(opened.origin + opened.pathname).toBe(`${base}/authorize`);
    expect(Object.fromEntries([...opened.searchParams].filter(([name]) => !["state", "code_challenge"].includes(name)))).toEqual({
      response_type: "code",
      client_id: "svc-test",
      redirect_uri: "http://127.0.0.1:47812/oauth/callback",
      code_challenge_method: "S256",
      scope: "read",
    });
    tokens.challenge = opened.searchParams.get("code_challenge") ?? undefined;

    // The person signs in; the service sends the browser back to the host's callback port.
    const from = scene.host.events.length;
    const page = await fetch(`http://127.0.0.1:47812/oauth/callback?code=the-code&state=${opened.searchParams.get("state")}`);
    expect(page.status).toBe(200);
    expect(await scene.host.waitFor((e) => e.type === "notify", { from })).toEqual({ type: "notify", extensionId: "test.signin", title: "Demo is connected" });
    expect(await reportOfRun(scene.host, "test.signin/report", "preferences", from)).toEqual({
      trigger: "preferences",
      connections: [{ scopes: ["read"], needsReconnect: false, keys: ["connectedAt", "id", "needsReconnect", "scopes"] }],
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
    expect(await reportOfRun(scene.host, "test.signin/report", "manual", before)).toEqual({ trigger: "manual", disconnect: { ok: null } });
    expect(await reportOfRun(scene.host, "test.signin/report", "preferences", before)).toEqual({ trigger: "preferences", connections: [], token: null });
    expect(tokens.revoked.sort()).toEqual(["access_token", "refresh_token"]);
    expect(await new KeyringSecretStore().get("svc.test.signin", "oauth.demo")).toBeNull();
  });
});
