import { describe, expect, it } from "vitest";
import { checkManifest } from "./manifest-check.js";

const valid = () => ({
  name: "deploys",
  version: "1.0.0",
  main: "dist/index.js",
  svc: {
    id: "com.example.deploys",
    title: "Deploys",
    interval: "1m",
    permissions: { network: ["api.example.com"], files: [], exec: [] },
  },
});

describe("checkManifest", () => {
  it("accepts a valid manifest and fills the defaults", () => {
    const check = checkManifest(valid());
    expect(check.errors).toEqual([]);
    expect(check.manifest).toMatchObject({ id: "com.example.deploys", name: "deploys", version: "1.0.0" });
    expect(check.manifest?.svc.preferences).toEqual([]);
  });

  it("names the field path of each problem, one line each", () => {
    const broken = valid();
    (broken.svc as Record<string, unknown>).interval = "5s";
    (broken.svc as Record<string, unknown>).title = 7;
    const check = checkManifest(broken);
    expect(check.manifest).toBeUndefined();
    expect(check.errors).toEqual([
      'package.json: "svc.title" should be a string',
      'package.json: "svc.interval" should be at least 10s',
    ]);
  });

  it("reports a missing svc object", () => {
    const { svc: _svc, ...rest } = valid();
    expect(checkManifest(rest).errors).toEqual(['package.json: "svc" should be an object']);
  });

  it("makes OAuth mistakes warnings and keeps the extension (SPEC.md OAuth rule 5)", () => {
    const manifest = valid();
    (manifest.svc as Record<string, unknown>).oauth = {
      github: {
        authorizeUrl: "http://github.com/login/oauth/authorize",
        tokenUrl: "https://github.com/login/oauth/access_token",
        clientId: "abc",
      },
    };
    const check = checkManifest(manifest);
    expect(check.errors).toEqual([]);
    expect(check.manifest?.id).toBe("com.example.deploys");
    expect(check.warnings).toEqual([
      'package.json: "svc.oauth.github.authorizeUrl" should be an https address (sign-in will not work until this is fixed)',
    ]);
  });
});

describe("checkManifest on OAuth hosts", () => {
  it("warns when the token host is not in permissions.network (OAuth rule 3)", () => {
    const manifest = valid();
    (manifest.svc as Record<string, unknown>).oauth = {
      github: {
        authorizeUrl: "https://github.com/login/oauth/authorize",
        tokenUrl: "https://github.com/login/oauth/access_token",
        clientId: "abc",
      },
    };
    const check = checkManifest(manifest);
    expect(check.errors).toEqual([]);
    expect(check.warnings).toEqual([
      'package.json: "svc.oauth.github.tokenUrl" host github.com should be in permissions.network: add "github.com" to svc.permissions.network (sign-in will not work until this is fixed)',
    ]);
  });

  it("warns when exec lists a program that runs other programs or writes files anywhere without runAnyCommand", () => {
    const manifest = valid();
    manifest.svc.permissions = { network: [], files: [], exec: ["git", "/usr/bin/env", "cp", "df"] } as never;
    expect(checkManifest(manifest).warnings).toEqual([
      'package.json: "svc.permissions.exec.1" /usr/bin/env runs other programs, so ctx.exec will refuse it; add "runAnyCommand": true to svc.permissions only if the extension must run any command (the install prompt says so)',
      'package.json: "svc.permissions.exec.2" cp writes files anywhere, so ctx.exec will refuse it; add "runAnyCommand": true to svc.permissions only if the extension must run any command (the install prompt says so)',
    ]);
    (manifest.svc.permissions as Record<string, unknown>).runAnyCommand = true;
    expect(checkManifest(manifest).warnings).toEqual([]);
  });

  it("refuses a title or description holding an escape sequence", () => {
    const manifest = valid();
    (manifest.svc as Record<string, unknown>).description = "ok\u001b[8m";
    expect(checkManifest(manifest).errors).toEqual([
      'package.json: "svc.description" should not contain U+001B (a control or bidi character; found at 2)',
    ]);
  });

  it("refuses a key the manifest does not know, suggesting the one meant", () => {
    const typo = valid();
    Object.assign(typo.svc, { intervall: "5m", Title: "x", colour: "red" });
    Object.assign(typo.svc.permissions, { netwrok: [] });
    (typo.svc as Record<string, unknown>).triggers = { webhooks: true };
    const check = checkManifest(typo);
    expect(check.manifest).toBeUndefined();
    expect(check.errors).toEqual([
      'package.json: "svc.intervall" is not a manifest key; did you mean "interval"?',
      'package.json: "svc.Title" is not a manifest key; did you mean "title"?',
      'package.json: "svc.colour" is not a manifest key; the keys here are id, title, description, icon, author, categories, interval, triggers, preferences, permissions, oauth',
      'package.json: "svc.triggers.webhooks" is not a manifest key; did you mean "webhook"?',
      'package.json: "svc.permissions.netwrok" is not a manifest key; did you mean "network"?',
    ]);
  });
});
