import { describe, expect, it } from "vitest";
import { OAUTH_REDIRECT_URI } from "../schemas/limits.js";
import { parseManifest, parseSvcManifest } from "./manifest.js";

const svc = { id: "com.example.deploys", title: "Deploys" };
const pkg = (extra: object = {}) => ({
  name: "deploys",
  version: "1.0.0",
  main: "dist/index.js",
  svc: { ...svc, ...extra },
});

function parsed(raw: unknown) {
  const result = parseManifest(raw);
  if (!result.ok) throw new Error(result.error);
  return result;
}
function refused(raw: unknown) {
  const result = parseManifest(raw);
  if (result.ok) throw new Error("expected the manifest to be refused");
  return result.error;
}

describe("parseManifest: the svc object", () => {
  it("fills defaults and keeps other package.json keys", () => {
    const result = parsed({ ...pkg(), scripts: { build: "svckit build" } });
    expect(result.manifest.svc).toEqual({
      ...svc,
      categories: [],
      triggers: { webhook: false, watch: [] },
      preferences: [],
      permissions: { network: [], files: [], exec: [], runAnyCommand: false },
      oauth: {},
    });
    expect(result.manifest.scripts).toEqual({ build: "svckit build" });
    expect(result.oauthProblems).toEqual([]);
  });

  it("names missing top-level fields", () => {
    expect(refused({ version: "1", svc })).toBe('"name" should be a string');
    expect(refused({ name: "x", version: "1" })).toBe('"svc" should be an object');
    expect(refused(pkg({ id: "deploys" }))).toBe('"svc.id" should be a reverse-DNS id like com.example.deploys');
  });

  it("interval: <n>s, <n>m or <n>h, at least 10s", () => {
    for (const interval of ["10s", "1m", "2h", "600s"])
      expect(parsed(pkg({ interval })).manifest.svc.interval).toBe(interval);
    expect(refused(pkg({ interval: "9s" }))).toBe('"svc.interval" should be at least 10s');
    expect(refused(pkg({ interval: "0m" }))).toBe('"svc.interval" should be at least 10s');
    for (const interval of ["10", "1.5m", "1d", " 10s", "m"]) {
      expect(refused(pkg({ interval }))).toBe('"svc.interval" should be <n>s, <n>m or <n>h, like 30s or 15m');
    }
  });

  it("triggers.watch: each path must be in permissions.files", () => {
    const ok = pkg({
      triggers: { watch: ["~/notes/today.md", "~/logs/app.log"] },
      permissions: { files: ["~/notes/today.md", "~/logs/"] },
    });
    expect(parsed(ok).manifest.svc.triggers.watch).toHaveLength(2);
    expect(refused(pkg({ triggers: { webhook: true, watch: ["~/x"] } }))).toBe(
      '"svc.triggers.watch.0" should also be in permissions.files: add "~/x" to svc.permissions.files',
    );
  });

  it("permissions.network: hostnames, *. wildcard and a port allowed", () => {
    const network = [
      "api.example.com",
      "*.example.org",
      "127.0.0.1",
      "localhost:8080",
      "a.example:1",
      "a.example:65535",
    ];
    expect(parsed(pkg({ permissions: { network } })).manifest.svc.permissions.network).toHaveLength(6);
    for (const bad of ["https://api.example.com", "localhost:0", "localhost:65536", "a.example/x"]) {
      expect(refused(pkg({ permissions: { network: [bad] } }))).toBe(
        '"svc.permissions.network.0" should be a hostname like api.example.com, *.example.com or localhost:8080 (no scheme or path)',
      );
    }
  });

  it("preferences of every type, with data, multiline and blips", () => {
    const preferences = [
      { name: "repos", title: "Repos", type: "textfield", multiline: true, blips: ["pr-"] },
      { name: "token", title: "Token", type: "password", required: true },
      { name: "drafts", title: "Drafts", type: "checkbox", default: false },
      { name: "region", title: "Region", type: "dropdown", data: [{ title: "EU", value: "eu" }], default: "eu" },
      { name: "limit", title: "Limit", type: "number", default: 5, placeholder: "5", description: "How many" },
    ];
    expect(parsed(pkg({ preferences })).manifest.svc.preferences).toEqual(preferences);
    expect(refused(pkg({ preferences: [{ name: "r", title: "R", type: "dropdown", data: [] }] }))).toBe(
      '"svc.preferences.0.data" should have at least 1 choice',
    );
    expect(
      refused(
        pkg({
          preferences: [{ name: "r", title: "R", type: "dropdown", data: [{ title: "A", value: "a" }], default: "b" }],
        }),
      ),
    ).toBe('"svc.preferences.0.default" should be one of the choices: a');
    expect(refused(pkg({ preferences: [{ name: "c", title: "C", type: "checkbox", default: "yes" }] }))).toBe(
      '"svc.preferences.0.default" should be a boolean',
    );
    expect(refused(pkg({ preferences: [preferences[0], { ...preferences[1], name: "repos" }] }))).toBe(
      '"svc.preferences.1.name" should be unique: "repos" is used twice',
    );
    expect(refused(pkg({ preferences: [{ name: "x", title: "X", type: "slider" }] }))).toBe(
      '"svc.preferences.0.type" should be one of textfield, password, checkbox, dropdown, number, url',
    );
  });
});

describe("parseManifest: OAuth problems never hide the extension", () => {
  const github = {
    title: "GitHub",
    authorizeUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    revokeUrl: "https://api.github.com/applications/revoke",
    clientId: "Iv1.abc",
    scopes: ["repo"],
    scopeSeparator: " ",
    params: { allow_signup: "false" },
  };
  const network = { permissions: { network: ["github.com", "api.github.com"] } };
  const withOAuth = (provider: object, extra: object = network) =>
    parseManifest(pkg({ ...extra, oauth: { github: provider } }));

  it("keeps a valid provider", () => {
    const result = withOAuth(github);
    expect(result).toMatchObject({ ok: true, oauthProblems: [] });
    expect(result.ok && result.manifest.svc.oauth.github).toEqual(github);
  });

  it("accepts hosts covered by a *. wildcard", () => {
    expect(withOAuth(github, { permissions: { network: ["github.com", "*.github.com"] } })).toMatchObject({
      ok: true,
      oauthProblems: [],
    });
  });

  const cases: [string, object, object, string][] = [
    [
      "rule 1: a client secret",
      { ...github, clientSecret: "s3cret" },
      network,
      '"oauth.github.clientSecret" is not allowed: svc signs in with PKCE as a public client; remove the client secret',
    ],
    [
      "rule 1: a client secret in params",
      { ...github, params: { client_secret: "x" } },
      network,
      '"oauth.github.params.client_secret" is not allowed: svc signs in with PKCE as a public client, so there is no client secret',
    ],
    [
      "rule 2: an http address",
      { ...github, authorizeUrl: "http://github.com/login/oauth/authorize" },
      network,
      '"oauth.github.authorizeUrl" should be an https address',
    ],
    [
      "rule 2: an http revoke address",
      { ...github, revokeUrl: "http://api.github.com/x" },
      network,
      '"oauth.github.revokeUrl" should be an https address',
    ],
    [
      "rule 3: the token host missing from the network list",
      github,
      { permissions: { network: ["api.github.com"] } },
      '"oauth.github.tokenUrl" host github.com should be in permissions.network: add "github.com" to svc.permissions.network',
    ],
    [
      "rule 3: the revoke host missing, wildcard not covering the bare domain",
      github,
      { permissions: { network: ["github.com", "*.api.github.com"] } },
      '"oauth.github.revokeUrl" host api.github.com should be in permissions.network: add "api.github.com" to svc.permissions.network',
    ],
    [
      "rule 4: a redirect of its own",
      { ...github, redirectUri: "http://localhost:3000/cb" },
      network,
      `"oauth.github.redirectUri" is not allowed: the redirect is always ${OAUTH_REDIRECT_URI}; remove it`,
    ],
    [
      "rule 4: a redirect in params",
      { ...github, params: { redirect_uri: "x" } },
      network,
      `"oauth.github.params.redirect_uri" is not allowed: the redirect is always ${OAUTH_REDIRECT_URI}`,
    ],
    ["a missing client id", { ...github, clientId: undefined }, network, '"oauth.github.clientId" should be a string'],
    ["an unknown key", { ...github, audience: "x" }, network, '"oauth.github.audience" is not allowed here'],
  ];

  for (const [what, provider, extra, problem] of cases) {
    it(`${what}: reported apart, the extension kept, the provider left out`, () => {
      const result = withOAuth(provider, extra);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.oauthProblems).toEqual([problem]);
      expect(result.manifest.svc.oauth).toEqual({});
      expect(result.manifest.svc.id).toBe(svc.id);
    });
  }

  it("keeps good providers beside a broken one", () => {
    const result = parseManifest(pkg({ ...network, oauth: { github, broken: { clientId: "x" } } }));
    expect(result.ok && Object.keys(result.manifest.svc.oauth)).toEqual(["github"]);
    expect(result.ok && result.oauthProblems[0]).toBe('"oauth.broken.tokenUrl" should be a string');
  });

  it("reports an oauth block that is not an object", () => {
    expect(parseManifest(pkg({ oauth: ["github"] }))).toMatchObject({
      ok: true,
      oauthProblems: ['"oauth" should be an object of providers by name'],
    });
  });
});

describe("parseSvcManifest", () => {
  it("parses the svc object alone", () => {
    expect(parseSvcManifest({ ...svc, interval: "30s" })).toMatchObject({ ok: true, svc: { interval: "30s" } });
    expect(parseSvcManifest({ ...svc, interval: "5s" })).toMatchObject({
      ok: false,
      error: '"interval" should be at least 10s',
    });
  });
});
