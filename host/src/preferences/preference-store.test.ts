/**
 * Stored preferences: a real JSON file in a temp support folder, passwords in a real
 * gnome-keyring, and `host.preferences.set` exactly as SPEC.md states it.
 */
import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { ErrorCodes, ResponseError } from "@svc/runtime";
import { ExtensionSecrets, KeyringSecretStore } from "../secrets/index.js";
import { preferenceHandlers, preferencesFolder, PreferenceStore, resolvePreferences, type ChangedBy } from "./index.js";
import { useSessionKeyring } from "../../../test/trust/session-keyring.js";

useSessionKeyring();

function manifestWith(id: string): Manifest {
  const parsed = parseManifest({
    name: "ci",
    version: "1.0.0",
    svc: {
      id,
      title: "CI",
      preferences: [
        { name: "branch", title: "Branch", type: "textfield", default: "main" },
        { name: "verbose", title: "Verbose", type: "checkbox" },
        { name: "limit", title: "Limit", type: "number", default: 5 },
        {
          name: "region",
          title: "Region",
          type: "dropdown",
          data: [
            { title: "EU", value: "eu" },
            { title: "US", value: "us" },
          ],
        },
        { name: "token", title: "Token", type: "password" },
        { name: "notes", title: "Notes", type: "textfield" },
      ],
    },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.manifest;
}

let root: string;
let manifest: Manifest;
let changes: [string, string, ChangedBy][];
let problems: string[];
let store: PreferenceStore;
const secrets = new ExtensionSecrets(new KeyringSecretStore());
let counter = 0;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-prefs-"));
  // A fresh id per test keeps keyring entries of one test out of the next.
  manifest = manifestWith(`com.example.prefs${++counter}`);
  changes = [];
  problems = [];
  store = new PreferenceStore({
    folder: preferencesFolder(root),
    secrets,
    onChanged: (id, name, by) => changes.push([id, name, by]),
    onProblem: (_id, message) => problems.push(message),
  });
});
afterEach(async () => {
  await secrets.delete(manifest.svc.id, "pref", "token");
  await rm(root, { recursive: true, force: true });
});

const fileOf = () => join(root, "Preferences", `${manifest.svc.id}.json`);
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("resolving the values passed on extension.load", () => {
  it("gives the declared defaults when nothing is stored", async () => {
    expect(await resolvePreferences(manifest, store)).toEqual({
      branch: "main",
      verbose: false,
      limit: 5,
      region: "eu",
    });
  });

  it("gives stored values, passwords from the secret store, and drops what no longer fits", async () => {
    await mkdir(join(root, "Preferences"), { recursive: true });
    // "region" was a choice an older version had; "token" in the file must never be used;
    // "gone" is not declared any more.
    await writeFile(fileOf(), JSON.stringify({ branch: "dev", region: "asia", token: "from-file", gone: 1 }));
    await secrets.set(manifest.svc.id, "pref", "token", "from-keyring");
    expect(await resolvePreferences(manifest, store)).toEqual({
      branch: "dev",
      verbose: false,
      limit: 5,
      region: "eu",
      token: "from-keyring",
    });
  });

  it("reads a file that is not a JSON object as no values, and says so", async () => {
    await mkdir(join(root, "Preferences"), { recursive: true });
    await writeFile(fileOf(), "{not json");
    expect(await resolvePreferences(manifest, store)).toEqual({
      branch: "main",
      verbose: false,
      limit: 5,
      region: "eu",
    });
    expect(problems).toEqual([
      `${fileOf()} is not a JSON object of preference values; using the defaults until an option is set again`,
    ]);
    await store.change(manifest, "limit", 7, "extension");
    expect(JSON.parse(await readFile(fileOf(), "utf8"))).toEqual({ limit: 7 });
  });
});

describe("host.preferences.set", () => {
  const set = (name: string, value: unknown) =>
    preferenceHandlers(store, (id) => (id === manifest.svc.id ? manifest : undefined))["preferences.set"]({
      extensionId: manifest.svc.id,
      name,
      value,
    });

  it("saves a value of each kind to the file (mode 0600) and announces each change", async () => {
    expect(wire(await set("branch", "release"))).toEqual({});
    await set("verbose", true);
    await set("limit", 2.5);
    await set("region", "us");
    expect(JSON.parse(await readFile(fileOf(), "utf8"))).toEqual({
      branch: "release",
      verbose: true,
      limit: 2.5,
      region: "us",
    });
    expect((await stat(fileOf())).mode & 0o777).toBe(0o600);
    expect(changes).toEqual(
      ["branch", "verbose", "limit", "region"].map((name) => [manifest.svc.id, name, "extension"]),
    );
    expect(await resolvePreferences(manifest, store)).toEqual({
      branch: "release",
      verbose: true,
      limit: 2.5,
      region: "us",
    });
  });

  it("clears a value with null, back to its default", async () => {
    await set("branch", "release");
    await set("branch", null);
    expect(JSON.parse(await readFile(fileOf(), "utf8"))).toEqual({});
    expect((await resolvePreferences(manifest, store)).branch).toBe("main");
    expect(changes).toHaveLength(2);
  });

  it.each([
    ["branch", 42, '"branch" should be text (a string)'],
    ["verbose", "yes", '"verbose" should be true or false'],
    ["limit", "5", '"limit" should be a finite number'],
    ["region", "asia", '"region" should be one of its choices: eu, us'],
    ["region", "EU", '"region" should be one of its choices: eu, us'],
    ["token", "s3cret", '"token" is a password option: only the person can set it, in Settings'],
    ["token", null, '"token" is a password option: only the person can set it, in Settings'],
    ["nope", "x", 'has no option "nope"; its options are: branch, verbose, limit, region, token, notes'],
    ["branch", undefined, '"branch" needs a value; null clears it'],
  ])("refuses %s = %j", async (name, value, message) => {
    const refusal = await set(name, value).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ResponseError);
    expect((refusal as ResponseError).code).toBe(ErrorCodes.InvalidParams);
    expect((refusal as ResponseError).message).toBe(
      message.startsWith("has no") ? `${manifest.svc.id} ${message}` : message,
    );
    expect(changes).toEqual([]);
    await expect(stat(fileOf())).rejects.toThrow(/ENOENT/);
  });

  it("refuses numbers that are not finite (NaN, Infinity)", async () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(store.change(manifest, "limit", value, "extension")).rejects.toThrow(
        '"limit" should be a finite number',
      );
    }
  });

  it("accepts 16,384 bytes of text and refuses 16,385", async () => {
    await set("notes", "n".repeat(16_384));
    await expect(set("notes", "n".repeat(16_385))).rejects.toThrow('"notes" is 16385 bytes of text; the most is 16384');
    expect((await resolvePreferences(manifest, store)).notes).toHaveLength(16_384);
  });

  it("refuses an extension that is not loaded", async () => {
    const handlers = preferenceHandlers(store, () => undefined);
    await expect(
      handlers["preferences.set"]({ extensionId: "com.example.other", name: "branch", value: "x" }),
    ).rejects.toThrow('no extension "com.example.other" is loaded');
  });

  it("keeps every one of many changes made at the same time", async () => {
    await Promise.all([set("branch", "a"), set("verbose", true), set("limit", 9), set("region", "us")]);
    expect(JSON.parse(await readFile(fileOf(), "utf8"))).toEqual({
      branch: "a",
      verbose: true,
      limit: 9,
      region: "us",
    });
  });
});

describe("a change from Settings", () => {
  it("keeps a password in the secret store, never in the file, and null clears it", async () => {
    await store.change(manifest, "token", "s3cret", "settings");
    expect(await secrets.get(manifest.svc.id, "pref", "token")).toBe("s3cret");
    await expect(stat(fileOf())).rejects.toThrow(/ENOENT/);
    expect((await resolvePreferences(manifest, store)).token).toBe("s3cret");
    await store.change(manifest, "token", null, "settings");
    expect(await secrets.get(manifest.svc.id, "pref", "token")).toBeNull();
    expect(changes).toEqual([
      [manifest.svc.id, "token", "settings"],
      [manifest.svc.id, "token", "settings"],
    ]);
  });
});
