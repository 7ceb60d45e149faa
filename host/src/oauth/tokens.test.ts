/**
 * After the sign-in: tokens renewed within five minutes of expiry (one renewal per connection,
 * however many callers), the network gone, a refused renewal, naming, invalidating and
 * disconnecting with revocation — against a real oidc-provider and a real gnome-keyring.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ResponseError } from "@svc/runtime";
import { HOST_CALL_FAILED } from "../secrets/index.js";
import { oauthHandlers, RENEW_BEFORE_MS } from "./index.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";
import { startOAuthHarness, type OAuthHarness } from "../../../test/trust/oauth-harness.js";

useSessionKeyring();

let h: OAuthHarness;
beforeEach(async () => {
  h = await startOAuthHarness({ accessTokenSeconds: 3600 });
});
afterEach(async () => {
  await h.stop();
});

const HOUR = 3_600_000;
const tokenRequests = () => h.as.requests.filter((r) => r === "POST /token").length;
const stored = async () => JSON.parse((await h.secrets.get(h.extensionId, "oauth", "demo"))!).connections;

describe("host.oauth.token", () => {
  it("hands out the stored token while it has more than five minutes left", async () => {
    await h.signIn();
    const first = await h.oauth.token({ extensionId: h.extensionId });
    h.clock.now += HOUR - RENEW_BEFORE_MS - 1_000;
    expect(await h.oauth.token({ extensionId: h.extensionId })).toEqual(first);
    expect(tokenRequests()).toBe(1); // the code exchange only
  });

  it("renews within five minutes of expiry, once, however many callers ask at the same time", async () => {
    await h.signIn();
    const first = await h.oauth.token({ extensionId: h.extensionId });
    h.clock.now += HOUR - RENEW_BEFORE_MS + 1_000;
    const before = tokenRequests();
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.oauth.token({ extensionId: h.extensionId })));
    expect(tokenRequests() - before).toBe(1);
    expect(h.as.grants).toEqual(["authorization_code", "refresh_token"]);
    const renewed = answers[0].token;
    expect(renewed).toEqual(expect.any(String));
    expect(renewed).not.toBe(first.token);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // The renewed token is kept, with its new expiry: no further renewal now.
    expect((await stored())[0]).toMatchObject({ accessToken: renewed, expiresAt: h.clock.now + HOUR });
    expect(await h.oauth.token({ extensionId: h.extensionId })).toEqual(answers[0]);
    expect(tokenRequests() - before).toBe(1);
  });

  it("keeps using a token that has not expired when the service cannot be reached, and errors once it has", async () => {
    await h.signIn();
    const first = await h.oauth.token({ extensionId: h.extensionId });
    await h.as.stop();
    h.clock.now += HOUR - 60_000;
    expect(await h.oauth.token({ extensionId: h.extensionId })).toEqual(first);
    h.clock.now += 120_000;
    const message = "could not renew the Demo sign-in: Demo could not be reached (ECONNREFUSED)";
    await expect(h.oauth.token({ extensionId: h.extensionId })).rejects.toThrow(message);
    const refusal = await oauthHandlers(h.oauth)
      ["oauth.token"]({ extensionId: h.extensionId })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ResponseError);
    expect((refusal as ResponseError).code).toBe(HOST_CALL_FAILED);
    expect((refusal as ResponseError).message).toBe(message);
    // Nothing was lost: the connection still stands, waiting for the network.
    expect((await h.oauth.connections({ extensionId: h.extensionId }))[0].needsReconnect).toBe(false);
  });

  it("answers {token: null} and marks the connection when the service refuses to renew", async () => {
    await h.signIn();
    const [connection] = await stored();
    // The person revoked the app at the service.
    const revoke = await fetch(h.as.revokeUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: connection.refreshToken, client_id: h.as.clientId }),
    });
    expect(revoke.status).toBe(200);
    h.clock.now += HOUR + 1_000;
    expect(await h.oauth.token({ extensionId: h.extensionId })).toEqual({ token: null });
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toEqual([
      expect.objectContaining({ id: connection.id, needsReconnect: true }),
    ]);
    // A new sign-in replaces it, as it was never named.
    await h.signIn();
    const after = await h.oauth.connections({ extensionId: h.extensionId });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ needsReconnect: false });
    expect(after[0].id).not.toBe(connection.id);
  });
});

describe("naming, invalidating and disconnecting", () => {
  it("names a connection, and connecting the same account again keeps only the newest", async () => {
    const handlers = oauthHandlers(h.oauth);
    await h.signIn();
    const [older] = await h.oauth.connections({ extensionId: h.extensionId });
    const named = await handlers["oauth.describe"]({
      extensionId: h.extensionId,
      connection: older.id,
      account: "alice@example.com",
      label: "Work",
    });
    expect(JSON.parse(JSON.stringify(named))).toEqual({
      connection: { ...older, account: "alice@example.com", label: "Work" },
    });
    h.clock.now += 1_000;
    await h.signIn();
    const both = await h.oauth.connections({ extensionId: h.extensionId });
    expect(both).toHaveLength(2);
    await h.oauth.describe({
      extensionId: h.extensionId,
      connection: both[1].id,
      account: "alice@example.com",
      label: "Work",
    });
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toEqual([
      { ...both[1], account: "alice@example.com", label: "Work" },
    ]);
  });

  it("keeps a named connection that needs reconnecting when another sign-in finishes", async () => {
    await h.signIn();
    const [first] = await h.oauth.connections({ extensionId: h.extensionId });
    await h.oauth.describe({ extensionId: h.extensionId, connection: first.id, account: "alice", label: "Home" });
    expect(
      await oauthHandlers(h.oauth)["oauth.invalidate"]({ extensionId: h.extensionId, connection: first.id }),
    ).toEqual({});
    expect(await h.oauth.token({ extensionId: h.extensionId, connection: first.id })).toEqual({ token: null });
    await h.signIn();
    const after = await h.oauth.connections({ extensionId: h.extensionId });
    expect(after.map((c) => [c.id === first.id, c.needsReconnect])).toEqual([
      [true, true],
      [false, false],
    ]);
    // With no connection named, the token is the first that works.
    expect((await h.oauth.token({ extensionId: h.extensionId })).connection?.id).toBe(after[1].id);
  });

  it("refuses to name or invalidate a connection that does not exist", async () => {
    await expect(
      h.oauth.describe({ extensionId: h.extensionId, connection: "nope", account: "a", label: "b" }),
    ).rejects.toThrow('Demo has no connection "nope"');
    await expect(h.oauth.invalidate({ extensionId: h.extensionId, connection: "nope" })).rejects.toThrow(
      'Demo has no connection "nope"',
    );
  });

  it("disconnects: revokes both tokens at the service, forgets them, and runs the extension again", async () => {
    await h.signIn();
    const [connection] = await h.oauth.connections({ extensionId: h.extensionId });
    expect(
      await oauthHandlers(h.oauth)["oauth.disconnect"]({ extensionId: h.extensionId, connection: connection.id }),
    ).toEqual({});
    expect(h.as.requests.filter((r) => r === "POST /token/revocation")).toHaveLength(2);
    expect(h.as.revoked).toEqual(["refresh_token", "grant"]);
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toEqual([]);
    expect(await h.secrets.get(h.extensionId, "oauth", "demo")).toBeNull();
    expect(h.changes).toEqual([
      ["demo", "connected"],
      ["demo", "disconnected"],
    ]);
  });

  it("disconnects even when the service cannot be reached to revoke (best effort)", async () => {
    await h.signIn();
    await h.signIn();
    await h.as.stop();
    await h.oauth.disconnect({ extensionId: h.extensionId });
    expect(await h.oauth.connections({ extensionId: h.extensionId })).toEqual([]);
    expect(h.changes.at(-1)).toEqual(["demo", "disconnected"]);
  });
});
