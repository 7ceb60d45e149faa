/**
 * Sign-in end to end against a real oidc-provider on loopback, through its real login and
 * consent pages, with tokens kept in a real gnome-keyring.
 */
import { createServer, type Server } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { ResponseError } from "@svc/runtime";
import { HOST_CALL_FAILED } from "../secrets/index.js";
import { oauthHandlers, OAuthService, redirectUriFor } from "./index.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";
import { startOAuthHarness, type OAuthHarness } from "../../../test/trust/oauth-harness.js";
import { signInInBrowser } from "../../../test/trust/browser.js";

useSessionKeyring();

let h: OAuthHarness;
beforeEach(async () => {
  h = await startOAuthHarness();
});
afterEach(async () => {
  await h.stop();
});

/** True when something listens on 127.0.0.1:port. */
function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe: Server = createServer();
    probe.once("error", () => resolve(true));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}

describe("a sign-in", () => {
  it("builds the redirect from the port: 47812 gives exactly SPEC.md's address", () => {
    expect(redirectUriFor(47812)).toBe("http://127.0.0.1:47812/oauth/callback");
    expect(h.oauth.redirectUri).toBe(`http://127.0.0.1:${h.port}/oauth/callback`);
  });

  it("opens the authorize page with PKCE S256 and state, and the callback port only while pending", async () => {
    h.browse = async () => ({ status: 0, body: "", visited: [] }); // the person has not acted yet
    expect(await h.oauth.connect({ extensionId: h.extensionId })).toEqual({});
    const url = new URL(h.opened[0]);
    expect(`${url.origin}${url.pathname}`).toBe(h.as.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: h.as.clientId,
      redirect_uri: h.oauth.redirectUri,
      state: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: "S256",
      scope: "api offline_access",
    });
    expect(h.oauth.listening).toBe(true);
    expect(await portIsOpen(h.port)).toBe(true);
    await h.oauth.dispose();
    expect(await portIsOpen(h.port)).toBe(false);
  });

  it("signs in through the real pages, keeps the tokens in the keyring and says <title> is connected", async () => {
    const page = await h.signIn();
    expect(page.status).toBe(200);
    expect(page.body).toContain("Demo is connected");
    expect(h.as.grants).toEqual(["authorization_code"]);
    expect(h.notices).toEqual(["Demo is connected"]);
    expect(h.changes).toEqual([["demo", "connected"]]);

    const connections = await h.oauth.connections({ extensionId: h.extensionId });
    expect(connections).toEqual([
      {
        id: expect.stringMatching(/^c[0-9a-f]{16}$/),
        connectedAt: new Date(h.clock.now).toISOString(),
        scopes: ["api"],
        needsReconnect: false,
      },
    ]); // the scopes the service granted (it keeps offline_access to itself)
    const answer = await h.oauth.token({ extensionId: h.extensionId });
    expect(answer.token).toEqual(expect.any(String));
    expect(answer).toEqual({ token: answer.token, connection: connections[0] });
    // The record never holds a token; the keyring entry oauth.demo holds both tokens.
    expect(JSON.stringify(connections)).not.toContain(answer.token!);
    const stored = JSON.parse((await h.secrets.get(h.extensionId, "oauth", "demo"))!);
    expect(stored.connections[0]).toMatchObject({ accessToken: answer.token, refreshToken: expect.any(String) });
    // The port closes once nothing is pending.
    expect(h.oauth.listening).toBe(false);
    expect(await portIsOpen(h.port)).toBe(false);
  });

  it("reopens a pending sign-in for the same provider instead of starting another", async () => {
    const pages: string[] = [];
    h.browse = async (url) => (pages.push(url), { status: 0, body: "", visited: [] });
    await h.oauth.connect({ extensionId: h.extensionId });
    await h.oauth.connect({ extensionId: h.extensionId, provider: "demo" });
    expect(pages).toHaveLength(2);
    expect(pages[1]).toBe(pages[0]);
    const page = await signInInBrowser(pages[1], { login: "alice" });
    expect(page.status).toBe(200);
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toHaveLength(1);
  });

  it("refuses a return with the wrong state and keeps waiting for the real one", async () => {
    h.browse = async () => ({ status: 0, body: "", visited: [] });
    await h.oauth.connect({ extensionId: h.extensionId });
    const forged = await fetch(`${h.oauth.redirectUri}?code=stolen&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain(
      "This is not a sign-in svc is waiting for, or it has expired. Start it again from svc.",
    );
    expect(h.oauth.listening).toBe(true);
    expect(h.as.requests.filter((r) => r === "POST /token")).toEqual([]);
    const page = await signInInBrowser(h.opened[0], { login: "alice" });
    expect(page.status).toBe(200);
    expect(h.notices).toEqual(["Demo is connected"]);
  });

  it("reports a denied consent and keeps no connection", async () => {
    h.browse = (url) => signInInBrowser(url, { login: "alice", deny: true });
    const page = await h.signIn();
    expect(page.status).toBe(400);
    expect(page.body).toContain("Demo sign-in did not finish: access was not granted (End-User aborted interaction)");
    expect(h.notices).toEqual(["Demo sign-in did not finish: access was not granted (End-User aborted interaction)"]);
    expect(h.changes).toEqual([]);
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toEqual([]);
    expect(h.oauth.listening).toBe(false);
  });

  it("errors clearly when the sign-in port is taken", async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(h.port, "127.0.0.1", resolve));
    try {
      const message = `cannot start the sign-in: port ${h.port} on 127.0.0.1 is in use by another program; close it and try again`;
      await expect(h.oauth.connect({ extensionId: h.extensionId })).rejects.toThrow(message);
      const refusal = await oauthHandlers(h.oauth)
        ["oauth.connect"]({ extensionId: h.extensionId })
        .catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(ResponseError);
      expect((refusal as ResponseError).code).toBe(HOST_CALL_FAILED);
      expect((refusal as ResponseError).message).toBe(message);
      expect(h.opened).toEqual([]);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe("which provider", () => {
  const manifest = (oauth: Record<string, unknown>) => {
    const parsed = parseManifest({
      name: "x",
      version: "1.0.0",
      svc: { id: "com.example.which", title: "Which", permissions: { network: ["auth.example.com"] } },
    });
    if (!parsed.ok) throw new Error(parsed.error);
    return { ...parsed.manifest, svc: { ...parsed.manifest.svc, oauth } } as Manifest;
  };
  const provider = (url: string) => ({ authorizeUrl: `${url}/authorize`, tokenUrl: `${url}/token`, clientId: "id" });
  const service = (m: Manifest, allowInsecureLoopback = false) =>
    new OAuthService({
      secrets: h.secrets,
      manifestOf: (id) => (id === m.svc.id ? m : undefined),
      openURL: () => undefined,
      notify: () => undefined,
      onConnectionsChanged: () => undefined,
      port: h.port,
      allowInsecureLoopback,
    });

  it("takes the only declared provider when none is named, and refuses to guess among two", async () => {
    const one = service(manifest({ demo: provider("https://auth.example.com") }));
    expect(await one.connections({ extensionId: "com.example.which" })).toEqual([]);
    const two = service(manifest({ a: provider("https://auth.example.com"), b: provider("https://auth.example.com") }));
    await expect(two.connections({ extensionId: "com.example.which" })).rejects.toThrow(
      "com.example.which declares 2 sign-ins (a, b): name the provider",
    );
    await expect(two.connections({ extensionId: "com.example.which", provider: "c" })).rejects.toThrow(
      'com.example.which has no sign-in named "c"; declared: a, b',
    );
    await expect(service(manifest({})).token({ extensionId: "com.example.which" })).rejects.toThrow(
      "com.example.which declares no sign-in: add a provider to svc.oauth",
    );
    await expect(one.connect({ extensionId: "com.example.other" })).rejects.toThrow(
      'no extension "com.example.other" is loaded',
    );
  });

  it("refuses plain http addresses; the test-only option allows them on loopback hosts only", async () => {
    const loopback = manifest({ demo: provider("http://127.0.0.1:9") });
    await expect(service(loopback).connect({ extensionId: "com.example.which" })).rejects.toThrow(
      '"oauth.demo.authorizeUrl" should be an https address: http://127.0.0.1:9/authorize',
    );
    const remote = manifest({ demo: provider("http://auth.example.com") });
    await expect(service(remote, true).connect({ extensionId: "com.example.which" })).rejects.toThrow(
      '"oauth.demo.authorizeUrl" should be an https address: http://auth.example.com/authorize',
    );
  });

  it("answers {token: null} when there is no connection", async () => {
    expect(await h.oauth.token({ extensionId: h.extensionId })).toEqual({ token: null });
  });
});
