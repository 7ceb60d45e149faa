/**
 * The device flow (RFC 8628) in the host's sign-in broker, against recordings of GitHub's
 * documented answers (docs.github.com, "Authorizing OAuth apps", device flow: JSON when asked
 * with `Accept: application/json`, form-encoded otherwise, errors with status 200) served on
 * loopback, the host's manual clock for the polling, and a real gnome-keyring for the tokens.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { ManualClock, type Timer } from "../clock/index.js";
import { ExtensionSecrets, KeyringSecretStore } from "../secrets/index.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../../test/trust/authorization-server.js";
import { signInInBrowser } from "../../../test/trust/browser.js";
import { OAuthService, type ShownDeviceCode } from "./index.js";

useSessionKeyring();

/** GitHub's documented answers, as recorded. */
const GITHUB = {
  deviceCode: {
    device_code: "3584d83530557fdd1f46af8289938c8ef79f9dc5",
    user_code: "WDJB-MJHT",
    verification_uri: "https://github.com/login/device",
    expires_in: 900,
    interval: 5,
  },
  pending: {
    error: "authorization_pending",
    error_description: "The authorization request is still pending.",
    error_uri: "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
  },
  slowDown: {
    error: "slow_down",
    error_description: "Too many requests have been made in the same timeframe.",
    error_uri: "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
    interval: 10,
  },
  expired: {
    error: "expired_token",
    error_description: "The `device_code` has expired.",
    error_uri: "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
  },
  denied: {
    error: "access_denied",
    error_description: "The authorization request was denied.",
    error_uri: "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
  },
  token: { access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a", token_type: "bearer", scope: "repo,gist" },
};

type Answer = { body: Record<string, unknown>; form?: boolean };

/** A loopback stand-in answering each POST with the next recording; it keeps what was sent. */
class Recordings {
  server!: Server;
  port = 0;
  readonly sent: { path: string; fields: Record<string, string>; accept: string | undefined }[] = [];
  readonly answers: Answer[] = [];
  #waiters: (() => void)[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        this.sent.push({
          path: req.url ?? "",
          fields: Object.fromEntries(new URLSearchParams(text)),
          accept: req.headers.accept,
        });
        const answer = this.answers.shift() ?? { body: { error: "no recording left" } };
        if (answer.form) {
          const form = new URLSearchParams(
            Object.entries(answer.body).map(([k, v]): [string, string] => [k, String(v)]),
          );
          res
            .writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" })
            .end(form.toString());
        } else
          res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(answer.body));
        for (const wake of this.#waiters.splice(0)) wake();
      });
    });
    this.port = await new Promise((done) =>
      this.server.listen(0, "127.0.0.1", () => done((this.server.address() as AddressInfo).port)),
    );
  }

  /** Resolves once `count` requests have been answered. */
  async answered(count: number): Promise<void> {
    while (this.sent.length < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }
}

/** The manual clock, telling the test when the poller set its next timer. */
class WatchedClock extends ManualClock {
  armed = 0;
  #waiters: (() => void)[] = [];
  override setTimer(ms: number, fire: () => void): Timer {
    const timer = super.setTimer(ms, fire);
    this.armed++;
    for (const wake of this.#waiters.splice(0)) wake();
    return timer;
  }
  async armedAtLeast(count: number): Promise<void> {
    while (this.armed < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }
}

let rec: Recordings;
let clock: WatchedClock;
let oauth: OAuthService;
let shown: ShownDeviceCode[];
let opened: string[];
let notices: string[];
const secrets = new ExtensionSecrets(new KeyringSecretStore());
let extensionId = "";
let counter = 0;

beforeEach(async () => {
  rec = new Recordings();
  await rec.start();
  clock = new WatchedClock(1_800_000_000_000);
  shown = [];
  opened = [];
  notices = [];
  extensionId = `com.example.gh${process.pid}x${++counter}`;
  const parsed = parseManifest({
    name: "gh",
    version: "1.0.0",
    svc: { id: extensionId, title: "GitHub status", permissions: { network: ["api.github.com"] } },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  const manifest: Manifest = parsed.manifest;
  // Plain-http loopback addresses: accepted only because the service below allows them.
  manifest.svc.oauth = {
    github: {
      title: "GitHub",
      flow: "device",
      deviceAuthorizationUrl: `http://127.0.0.1:${rec.port}/login/device/code`,
      authorizeUrl: `http://127.0.0.1:${rec.port}/login/oauth/authorize`,
      tokenUrl: `http://127.0.0.1:${rec.port}/login/oauth/access_token`,
      clientId: "Iv1.svc-test",
      scopes: ["repo", "gist"],
      scopeSeparator: ",",
    },
  };
  oauth = new OAuthService({
    secrets,
    manifestOf: (id) => (id === extensionId ? manifest : undefined),
    openURL: (url) => void opened.push(url),
    notify: (_id, title) => notices.push(title),
    onConnectionsChanged: () => {},
    showDeviceCode: (_id, code) => shown.push(code),
    allowInsecureLoopback: true,
    clock,
  });
});
afterEach(async () => {
  await oauth.dispose();
  rec.server.close();
  await secrets.delete(extensionId, "oauth", "github");
});

const TOKEN_POLL = {
  path: "/login/oauth/access_token",
  fields: {
    grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    device_code: GITHUB.deviceCode.device_code,
    client_id: "Iv1.svc-test",
  },
  accept: "application/json",
};

/** Moves the clock by `ms` once the poller waits, then waits for request number `count`. */
async function pollAfter(ms: number, count: number): Promise<void> {
  // Before request `count` the poller has set `count - 1` timers (the first request asked for the code).
  await clock.armedAtLeast(count - 1);
  clock.advance(ms);
  await rec.answered(count);
}

describe("the device flow (RFC 8628) against GitHub's recorded answers", () => {
  it("shows the code, polls at the interval, honours slow_down's new interval, and keeps the token", async () => {
    rec.answers.push(
      { body: GITHUB.deviceCode },
      { body: GITHUB.pending },
      { body: GITHUB.slowDown },
      { body: GITHUB.token },
    );
    await oauth.connect({ extensionId });
    expect(rec.sent).toEqual([
      {
        path: "/login/device/code",
        fields: { client_id: "Iv1.svc-test", scope: "repo,gist" },
        accept: "application/json",
      },
    ]);
    expect(shown).toEqual([
      {
        provider: "github",
        title: "GitHub",
        userCode: "WDJB-MJHT",
        verificationUri: "https://github.com/login/device",
        expiresAt: clock.now() + 900_000,
      },
    ]);
    expect(opened).toEqual(["https://github.com/login/device"]);

    // Not before the interval (5 s): at 4,999 ms nothing is asked; at 5,000 it is.
    await clock.armedAtLeast(1);
    clock.advance(4_999);
    expect(rec.sent).toHaveLength(1);
    await pollAfter(1, 2);
    expect(rec.sent[1]).toEqual(TOKEN_POLL);
    // authorization_pending: again after 5 s; that answer is slow_down with interval 10.
    await pollAfter(5_000, 3);
    // Now 10 s: not at 9,999 ms.
    await clock.armedAtLeast(3);
    clock.advance(9_999);
    expect(rec.sent).toHaveLength(3);
    await pollAfter(1, 4);
    await expect.poll(() => notices).toEqual(["GitHub is connected"]);
    const { token, connection } = await oauth.token({ extensionId });
    expect(token).toBe(GITHUB.token.access_token);
    expect(connection).toMatchObject({ scopes: ["repo", "gist"], needsReconnect: false });
    // Connecting again while nothing polls starts a new sign-in; the token is never shown.
    expect(JSON.stringify(shown)).not.toContain("gho_");
  });

  it("reads form-encoded answers (GitHub without Accept: application/json)", async () => {
    rec.answers.push(
      { body: GITHUB.deviceCode, form: true },
      { body: GITHUB.pending, form: true },
      { body: GITHUB.token, form: true },
    );
    await oauth.connect({ extensionId });
    expect(shown[0]).toMatchObject({ userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device" });
    await pollAfter(5_000, 2);
    await pollAfter(5_000, 3);
    await expect.poll(() => notices).toEqual(["GitHub is connected"]);
    expect((await oauth.token({ extensionId })).token).toBe(GITHUB.token.access_token);
  });

  it("shows the same code again when the extension connects while it polls", async () => {
    rec.answers.push({ body: GITHUB.deviceCode });
    await oauth.connect({ extensionId });
    await oauth.connect({ extensionId });
    expect(rec.sent).toHaveLength(1);
    expect(shown).toHaveLength(2);
    expect(shown[1]).toEqual(shown[0]);
  });

  it("ends on expired_token and on access_denied, with words for the person, and keeps nothing", async () => {
    rec.answers.push({ body: GITHUB.deviceCode }, { body: GITHUB.expired });
    await oauth.connect({ extensionId });
    await pollAfter(5_000, 2);
    await expect
      .poll(() => notices)
      .toEqual(["GitHub sign-in did not finish: the code WDJB-MJHT expired before it was entered; connect again"]);

    rec.answers.push({ body: GITHUB.deviceCode }, { body: GITHUB.denied });
    await oauth.connect({ extensionId });
    // The first sign-in set one timer before it ended: this one's first is the second.
    await clock.armedAtLeast(2);
    clock.advance(5_000);
    await rec.answered(4);
    await expect.poll(() => notices.length).toBe(2);
    expect(notices[1]).toBe("GitHub sign-in did not finish: access was not granted");
    expect(await oauth.connections({ extensionId })).toEqual([]);
  });

  it("stops asking once the code's own time (expires_in) has passed, without asking again", async () => {
    rec.answers.push(
      { body: { ...GITHUB.deviceCode, expires_in: 12 } },
      { body: GITHUB.pending },
      { body: GITHUB.pending },
    );
    await oauth.connect({ extensionId });
    await pollAfter(5_000, 2);
    await pollAfter(5_000, 3);
    // The next poll would be at 15 s, after the code's 12 s.
    await clock.armedAtLeast(3);
    clock.advance(5_000);
    await expect
      .poll(() => notices)
      .toEqual(["GitHub sign-in did not finish: the code WDJB-MJHT expired before it was entered; connect again"]);
    expect(rec.sent).toHaveLength(3);
  });
});

describe("the device flow against a real authorization server (oidc-provider) on loopback", () => {
  let as: AuthorizationServer;
  let service: OAuthService;
  const id = `com.example.device${process.pid}`;
  const notes: string[] = [];
  const codes: ShownDeviceCode[] = [];

  beforeEach(async () => {
    notes.length = 0;
    codes.length = 0;
    as = await startAuthorizationServer({ redirectUri: "http://127.0.0.1:9/unused", deviceFlow: true });
    const parsed = parseManifest({
      name: "device",
      version: "1.0.0",
      svc: { id, title: "Device demo", permissions: { network: ["127.0.0.1"] } },
    });
    if (!parsed.ok) throw new Error(parsed.error);
    const manifest = parsed.manifest;
    manifest.svc.oauth = {
      demo: {
        title: "Demo",
        flow: "device",
        deviceAuthorizationUrl: as.deviceAuthorizationUrl,
        authorizeUrl: as.authorizeUrl,
        tokenUrl: as.tokenUrl,
        revokeUrl: as.revokeUrl,
        clientId: as.clientId,
        scopes: ["api", "offline_access"],
      },
    };
    service = new OAuthService({
      secrets,
      manifestOf: (x) => (x === id ? manifest : undefined),
      openURL: () => {},
      notify: (_x, title) => notes.push(title),
      onConnectionsChanged: () => {},
      showDeviceCode: (_x, code) => codes.push(code),
      allowInsecureLoopback: true,
      clock,
    });
  });
  afterEach(async () => {
    await service.dispose();
    await as.stop();
    await secrets.delete(id, "oauth", "demo");
  });

  it("signs in once the person types the code, asking only at the interval", async () => {
    await service.connect({ extensionId: id });
    const [code] = codes;
    expect(code.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(code.verificationUri).toBe(`${as.issuer}/device`);
    // Asked before the person typed it: authorization_pending, and it goes on.
    await clock.armedAtLeast(1);
    clock.advance(5_000);
    await expect.poll(() => as.requests.filter((r) => r === "POST /token").length).toBe(1);
    const page = await signInInBrowser(code.verificationUri, { login: "alice", userCode: code.userCode });
    expect(page.status).toBe(200);
    await clock.armedAtLeast(2);
    clock.advance(5_000);
    await expect.poll(() => notes).toEqual(["Demo is connected"]);
    expect(as.grants).toEqual(["urn:ietf:params:oauth:grant-type:device_code"]);
    const { token, connection } = await service.token({ extensionId: id });
    expect(token).toEqual(expect.any(String));
    expect(connection).toMatchObject({ needsReconnect: false });
  });

  it("ends with words when the person cancels at the service (access_denied)", async () => {
    await service.connect({ extensionId: id });
    await signInInBrowser(codes[0].verificationUri, { login: "alice", userCode: codes[0].userCode, deny: true });
    await clock.armedAtLeast(1);
    clock.advance(5_000);
    await expect.poll(() => notes).toEqual(["Demo sign-in did not finish: access was not granted"]);
    expect(await service.connections({ extensionId: id })).toEqual([]);
  });
});
