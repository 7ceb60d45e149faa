/**
 * The `url` option (a server the person chooses) and the device-flow provider fields, as the
 * manifest reader and the value rule check them.
 */
import { describe, expect, it } from "vitest";
import { parseManifest } from "../processing/manifest.js";
import { PREFERENCE_URL_MAX_LENGTH, preferenceValueProblem, type Preference } from "./preferences.js";

const SERVER: Preference = { name: "server", title: "Server", type: "url" };

function manifestWith(svc: Record<string, unknown>) {
  return parseManifest({ name: "x", version: "1.0.0", svc: { id: "com.example.x", title: "X", ...svc } });
}

describe("url options", () => {
  it("take an http or https address up to 2,048 characters, and nothing else", () => {
    expect(preferenceValueProblem(SERVER, "https://calendar.google.com/x.ics")).toBeUndefined();
    expect(preferenceValueProblem(SERVER, "http://192.168.1.20:8123")).toBeUndefined();
    const at = `https://a.example/${"a".repeat(PREFERENCE_URL_MAX_LENGTH - 18)}`;
    expect(at).toHaveLength(2048);
    expect(preferenceValueProblem(SERVER, at)).toBeUndefined();
    expect(preferenceValueProblem(SERVER, `${at}a`)).toBe('"server" is 2049 characters long; the most is 2048');
    expect(preferenceValueProblem(SERVER, "calendar.google.com")).toBe(
      '"server" should be a full address starting with https:// or http:// (e.g. https://calendar.example.com)',
    );
    expect(preferenceValueProblem(SERVER, "ftp://files.example")).toBe(
      '"server" should start with https:// or http://, not ftp://',
    );
    expect(preferenceValueProblem(SERVER, "https://me:pw@example.com")).toBe(
      '"server" should not hold a user name or password; give those in a password option',
    );
    expect(preferenceValueProblem(SERVER, 42)).toBe('"server" should be an address (a string)');
  });

  it("have no default: the author cannot know the server", () => {
    const parsed = manifestWith({
      preferences: [{ name: "server", title: "Server", type: "url", default: "https://a.example" }],
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(`"svc.preferences.0.default" should be left out`);
    expect(manifestWith({ preferences: [{ name: "server", title: "Server", type: "url" }] }).ok).toBe(true);
  });
});

describe("device-flow providers", () => {
  const github = {
    title: "GitHub",
    authorizeUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    clientId: "Iv1.abc",
  };

  it("need deviceAuthorizationUrl with flow device, and flow device with it", () => {
    const ok = manifestWith({
      oauth: { github: { ...github, flow: "device", deviceAuthorizationUrl: "https://github.com/login/device/code" } },
    });
    expect(ok.ok).toBe(true);
    const missing = manifestWith({ oauth: { github: { ...github, flow: "device" } } });
    expect(JSON.stringify(missing)).toContain('is needed with flow \\"device\\"');
    const stray = manifestWith({
      oauth: { github: { ...github, deviceAuthorizationUrl: "https://github.com/login/device/code" } },
    });
    expect(JSON.stringify(stray)).toContain('should be \\"device\\" when deviceAuthorizationUrl is given');
  });

  const device = {
    title: "GitHub",
    flow: "device",
    deviceAuthorizationUrl: "https://github.com/login/device/code",
    tokenUrl: "https://github.com/login/oauth/access_token",
    clientId: "Iv1.abc",
  };
  const oauthOf = (provider: object, network: string[]) =>
    manifestWith({ permissions: { network }, oauth: { github: provider } });

  it("need no authorizeUrl; a browser sign-in does", () => {
    const result = oauthOf(device, ["github.com"]);
    expect(result).toMatchObject({ ok: true, oauthProblems: [] });
    expect(result.ok && result.manifest.svc.oauth.github).toEqual(device);
    const pkce = oauthOf({ ...github, authorizeUrl: undefined }, ["github.com"]);
    expect(pkce.ok && pkce.oauthProblems).toEqual([
      '"oauth.github.authorizeUrl" is needed: the https address where the browser signs in (or set "flow": "device" with deviceAuthorizationUrl)',
    ]);
  });

  it("have the code address's host checked against permissions.network, as the token address's is", () => {
    const elsewhere = { ...device, deviceAuthorizationUrl: "https://codes.example.com/device/code" };
    // At the edge: the host listed exactly, or under a wildcard, is enough …
    expect(oauthOf(elsewhere, ["github.com", "codes.example.com"])).toMatchObject({ ok: true, oauthProblems: [] });
    expect(oauthOf(elsewhere, ["github.com", "*.example.com"])).toMatchObject({ ok: true, oauthProblems: [] });
    // … and past it: a wildcard does not cover a deeper or the bare name, nor another port.
    for (const network of [
      ["github.com"],
      ["github.com", "*.codes.example.com"],
      ["github.com", "codes.example.com:8443"],
    ]) {
      const result = oauthOf(elsewhere, network);
      expect(result.ok && result.oauthProblems).toEqual([
        '"oauth.github.deviceAuthorizationUrl" host codes.example.com should be in permissions.network: add "codes.example.com" to svc.permissions.network',
      ]);
      expect(result.ok && result.manifest.svc.oauth).toEqual({});
    }
  });
});
