/**
 * The ledger on a real support folder: an install recorded and checked, a changed or added file
 * and a wider manifest refused with the words every display shows, an approval edited without
 * the key refused, the key file that stands in for a missing secret store, the one-time record
 * of what was installed before, forget, and accept only of what was reviewed.
 */
import { mkdtemp, mkdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { MemorySecretStore, SecretStoreUnavailableError, type SecretStore } from "../secrets/index.js";
import { PACKAGE_LIMITS } from "../review/index.js";
import { Ledger, ledgerKeyAccount, LEDGER_KEY_SERVICE, type FoundExtension } from "./index.js";

let root: string;
let extensions: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-ledger-"));
  extensions = join(root, "Extensions");
  await mkdir(extensions);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function manifestOf(permissions: Record<string, unknown> = { exec: ["cp"] }): Manifest {
  const parsed = parseManifest({
    name: "copier",
    version: "1.0.0",
    svc: { id: "com.example.copier", title: "Copier", permissions },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.manifest;
}

/** Writes an extension folder; resolves with it as discovery would find it. */
async function writeCopier(manifest = manifestOf()): Promise<FoundExtension> {
  const folder = join(extensions, "com.example.copier");
  await mkdir(join(folder, "dist"), { recursive: true });
  await writeFile(join(folder, "package.json"), JSON.stringify(manifest));
  await writeFile(join(folder, "dist", "index.js"), "module.exports = { default: {} };");
  return { id: "com.example.copier", folder, manifest, tools: [] };
}

const REMEDY =
  "accept it (svc-host accept com.example.copier, or Settings) or remove it (svc-host uninstall com.example.copier)";

async function installed(
  secrets: SecretStore = new MemorySecretStore(),
): Promise<{ ledger: Ledger; ext: FoundExtension }> {
  const ledger = await Ledger.open({ supportRoot: root, secrets });
  const ext = await writeCopier();
  await ledger.record(await ledger.current(ext));
  return { ledger, ext };
}

describe("the permission ledger", () => {
  it("lets an unchanged install load, and keeps the file 0600", async () => {
    const { ledger, ext } = await installed();
    expect(await ledger.check(ext)).toEqual({ ok: true });
    expect((await stat(ledger.file)).mode & 0o777).toBe(0o600);
  });

  it("refuses a package.json rewritten with more, naming the file and what it now asks for", async () => {
    const { ledger, ext } = await installed();
    const wider = manifestOf({ exec: ["cp", "sh"], runAnyCommand: true });
    await writeFile(join(ext.folder, "package.json"), JSON.stringify(wider));
    expect(await ledger.check({ ...ext, manifest: wider })).toMatchObject({
      ok: false,
      problem: `changed on disk since you installed it: package.json changed; it now also asks to: run any command; run the program sh; not loaded: ${REMEDY}`,
      changes: { changed: ["package.json"], added: [], removed: [] },
    });
  });

  it("refuses a changed code file and an added one", async () => {
    const { ledger, ext } = await installed();
    await writeFile(join(ext.folder, "dist", "index.js"), "module.exports = { default: { update() {} } };");
    await writeFile(join(ext.folder, "dist", "more.js"), "1");
    expect(await ledger.check(ext)).toMatchObject({
      ok: false,
      problem: `changed on disk since you installed it: dist/index.js changed; dist/more.js added; not loaded: ${REMEDY}`,
    });
  });

  it("refuses a manifest that differs from the approval even when the files were put back", async () => {
    const { ledger, ext } = await installed();
    const read = manifestOf({ exec: ["sh"] });
    expect((await ledger.check({ ...ext, manifest: read })).ok).toBe(false);
  });

  it("counts an approval edited without the key as none", async () => {
    const { ledger, ext } = await installed();
    const wider = manifestOf({ exec: ["sh"], runAnyCommand: true });
    await writeFile(join(ext.folder, "package.json"), JSON.stringify(wider));
    const forged = JSON.parse(await readFile(ledger.file, "utf8"));
    forged.entries["com.example.copier"].approval.manifest = wider;
    forged.entries["com.example.copier"].approval.files["package.json"] = "sha256:" + "0".repeat(64);
    await writeFile(ledger.file, JSON.stringify(forged));
    expect(await ledger.check({ ...ext, manifest: wider })).toEqual({
      ok: false,
      problem: `not loaded: its record in the permission ledger does not verify (it was edited outside svc): ${REMEDY}`,
    });
  });

  it("holds an installed folder with no approval, and lets a dev link load", async () => {
    const ledger = await Ledger.open({ supportRoot: root, secrets: new MemorySecretStore() });
    const ext = await writeCopier();
    expect(await ledger.check(ext)).toEqual({
      ok: false,
      problem: `not loaded: there is no record that you approved it (it was not installed by svc): ${REMEDY}`,
    });
    const source = join(root, "src");
    await mkdir(source);
    await symlink(source, join(extensions, "dev.svc.linked"));
    expect(await ledger.check({ ...ext, id: "dev.svc.linked", folder: join(extensions, "dev.svc.linked") })).toEqual({
      ok: true,
      devLink: true,
    });
  });

  it("stops reading past the package limit of files", async () => {
    const { ledger, ext } = await installed();
    const many = join(ext.folder, "many");
    await mkdir(many);
    // Two files already: package.json and dist/index.js.
    for (let i = 0; i < PACKAGE_LIMITS.entries - 2; i++) await writeFile(join(many, String(i)), "");
    expect((await ledger.check(ext)).ok).toBe(false); // 2,000 files, all new: changed, but read
    expect((await ledger.check(ext)) as { problem: string }).toMatchObject({
      problem: expect.stringContaining("many/0, many/1,"),
    });
    await writeFile(join(many, "one-more"), "");
    expect(await ledger.check(ext)).toEqual({
      ok: false,
      problem: `changed on disk since you installed it: it holds 2001 files, more than a package may (2000); not loaded: ${REMEDY}`,
    });
  });

  it("keeps the key in the secret store when there is one, and in a 0600 key file when there is none", async () => {
    const store = new MemorySecretStore();
    const withStore = await Ledger.open({ supportRoot: root, secrets: store });
    expect(withStore.place).toBe("secret-store");
    expect(await store.get(LEDGER_KEY_SERVICE, ledgerKeyAccount(root))).toMatch(/^[A-Za-z0-9+/]{43}=$/);

    const other = await mkdtemp(join(tmpdir(), "svc-ledger-nostore-"));
    const unavailable: SecretStore = {
      get: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
      set: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
      delete: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
      accounts: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
    };
    try {
      const withFile = await Ledger.open({ supportRoot: other, secrets: unavailable });
      expect(withFile.place).toBe("key-file");
      expect(withFile.storeProblem).toBe(
        "no secret store available: install and unlock a Secret Service such as gnome-keyring",
      );
      expect((await stat(withFile.keyFile)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("does not fall back to a key file when the ledger's key is in a secret store this process cannot reach", async () => {
    await installed();
    const unavailable: SecretStore = {
      get: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
      set: () => Promise.reject(new SecretStoreUnavailableError("no D-Bus session")),
      delete: () => Promise.resolve(false),
      accounts: () => Promise.resolve([]),
    };
    const ledger = await Ledger.open({ supportRoot: root, secrets: unavailable });
    expect(ledger.unusable).toBe(
      "svc keeps the ledger's key in the secret store, which this process cannot reach (no secret store available: install and unlock a Secret Service such as gnome-keyring): run svc where the secret store is unlocked",
    );
    await expect(stat(ledger.keyFile)).rejects.toThrow(/ENOENT/);
  });

  it("records what was installed before it existed, once, and not after the ledger file is deleted", async () => {
    const store = new MemorySecretStore();
    const ext = await writeCopier();
    const first = await Ledger.open({ supportRoot: root, secrets: store });
    expect(first.migrated).toEqual(["com.example.copier"]);
    expect(await first.check(ext)).toEqual({ ok: true });
    await rm(first.file);
    const again = await Ledger.open({ supportRoot: root, secrets: store });
    expect(again.migrated).toEqual([]);
    expect((await again.check(ext)).ok).toBe(false);
  });

  it("accepts only what was reviewed, and forgets on uninstall", async () => {
    const { ledger, ext } = await installed();
    const wider = manifestOf({ exec: ["cp", "sh"] });
    await writeFile(join(ext.folder, "package.json"), JSON.stringify(wider));
    const changed = { ...ext, manifest: wider };
    const review = await ledger.review(changed);
    expect(review.summary.text).toContain(
      "This updates the installed Copier 1.0.0.\nCompared with 1.0.0, it can now also:\n",
    );
    expect(review.summary.text).toContain("\nChanged on disk since you installed it: package.json changed.\n");
    await writeFile(join(ext.folder, "dist", "index.js"), "changed after the review");
    expect(await ledger.accept(changed, review.reviewed)).toBe(false);
    const second = await ledger.review(changed);
    expect(await ledger.accept(changed, second.reviewed)).toBe(true);
    expect(await ledger.check(changed)).toEqual({ ok: true });
    expect(await ledger.forget("com.example.copier")).toBe(true);
    expect(await ledger.standing("com.example.copier")).toEqual({ kind: "none" });
  });
});

describe("grants of url options", () => {
  it("records, replaces and revokes one option's origin; forgets them at uninstall", async () => {
    const ledger = await Ledger.open({ supportRoot: root, secrets: new MemorySecretStore() });
    await ledger.grant("com.example.cal", "server", "https://calendar.google.com");
    await ledger.grant("com.example.cal", "backup", "http://192.168.1.20:8123");
    expect(await ledger.grantedOrigins("com.example.cal")).toEqual({
      server: "https://calendar.google.com",
      backup: "http://192.168.1.20:8123",
    });
    await ledger.grant("com.example.cal", "server", "https://other.example");
    await ledger.grant("com.example.cal", "backup", undefined);
    expect(await ledger.grantedOrigins("com.example.cal")).toEqual({ server: "https://other.example" });
    expect(await ledger.grantedOrigins("com.example.else")).toEqual({});
    await ledger.forget("com.example.cal");
    expect(await ledger.grantedOrigins("com.example.cal")).toEqual({});
  });

  it("admits nothing from a grant edited or moved without the key", async () => {
    const ledger = await Ledger.open({ supportRoot: root, secrets: new MemorySecretStore() });
    await ledger.grant("com.example.cal", "server", "https://calendar.google.com");
    const file = join(root, "ledger.json");
    const shape = JSON.parse(await readFile(file, "utf8"));
    const entry = shape.grants["com.example.cal"];
    // Another origin under the same MAC, and the entry copied to another extension.
    shape.grants["com.example.cal"] = {
      ...entry,
      grants: { ...entry.grants, origins: { server: "http://127.0.0.1:22" } },
    };
    shape.grants["com.example.thief"] = entry;
    await writeFile(file, JSON.stringify(shape));
    expect(await ledger.grantedOrigins("com.example.cal")).toEqual({});
    expect(await ledger.grantedOrigins("com.example.thief")).toEqual({});
  });
});
