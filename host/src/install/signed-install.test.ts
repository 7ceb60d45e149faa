/**
 * Who made a package, at install: real Ed25519 keys signing real .svc files. The key is shown and
 * pinned on first install; an update must come from the same key; unsigned never replaces signed;
 * an older version needs `downgrade`; a file that is not what the author signed is refused before
 * anything reaches Extensions/.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyFingerprint, keyWords, publicKeyOfSeed, signPackage, type SecretKey } from "@svc/api/signing";
import { installPackage, InstallError, type InstallSummary } from "./index.js";
import { Ledger } from "../ledger/index.js";
import { MemorySecretStore } from "../secrets/index.js";
import { packageJson, writeSvc } from "../../../test/trust/svc-package.js";

const CODE = "module.exports = { default: {} };";
const ID = "com.example.deploys";

function newKey(): SecretKey {
  const seed = randomBytes(32);
  return { seed, keyId: randomBytes(8), key: publicKeyOfSeed(seed) };
}
const shownKey = (key: SecretKey) => `${keyFingerprint(key.key)} (${keyWords(key.key)})`;

let root: string;
let support: string;
let ledger: Ledger;
let shown: InstallSummary[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-signed-"));
  support = join(root, "Svc");
  ledger = await Ledger.open({ supportRoot: support, secrets: new MemorySecretStore() });
  shown = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Writes `<name>.svc` of version `version`, signed with `key` (unsigned without one); `change` edits the files after signing. */
async function svc(
  name: string,
  version: string,
  key?: SecretKey,
  change?: (files: Map<string, Buffer>) => void,
): Promise<string> {
  const files = new Map<string, Buffer>([
    ["package.json", Buffer.from(packageJson({}, { version }))],
    ["dist/index.js", Buffer.from(CODE)],
    ["dist/tools.json", Buffer.from("[]")],
    ["README.md", Buffer.from("# Deploys")],
  ]);
  if (key) for (const [path, data] of signPackage(ID, version, files, key)) files.set(path, data);
  change?.(files);
  const file = join(root, `${name}.svc`);
  await writeSvc(file, Object.fromEntries(files));
  return file;
}

const install = (file: string, downgrade = false) =>
  installPackage(file, { supportDir: support, ledger, downgrade, confirm: (s) => (shown.push(s), true) });

async function refusal(file: string, downgrade = false): Promise<string> {
  const error = await install(file, downgrade).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InstallError);
  return (error as Error).message;
}

const installedVersion = async () =>
  JSON.parse(await readFile(join(support, "Extensions", ID, "package.json"), "utf8")).version as string;

describe("first install", () => {
  it("shows the author's key as a fingerprint and words, new to you, and pins it beside the approval", async () => {
    const key = newKey();
    const result = await install(await svc("v1", "1.2.0", key));
    expect(result.installed).toBe(true);
    expect(result.summary.author).toEqual({
      signed: true,
      fingerprint: keyFingerprint(key.key),
      words: keyWords(key.key),
      newToYou: true,
    });
    expect(result.summary.text.split("\n").slice(0, 3)).toEqual([
      "Deploys 1.2.0 (com.example.deploys) by Example",
      "Shows your deploys.",
      `Signed by key ${shownKey(key)}: new to you.`,
    ]);
    const standing = await ledger.standing(ID);
    expect(standing.kind === "approved" && standing.approval.signer).toMatch(/^RW[A-Za-z0-9+/]{54}$/);
    // The signing files are installed with the package, and the ledger's digests cover them.
    expect((await readdir(join(support, "Extensions", ID))).sort()).toEqual([
      "README.md",
      "dist",
      "package.json",
      "svc-key.pub",
      "svc-manifest.json",
      "svc-manifest.json.minisig",
    ]);
    expect(standing.kind === "approved" && Object.keys(standing.approval.files).sort()).toEqual([
      "README.md",
      "dist/index.js",
      "dist/tools.json",
      "package.json",
      "svc-key.pub",
      "svc-manifest.json",
      "svc-manifest.json.minisig",
    ]);
  });

  it("says of an unsigned package that anyone could have made it", async () => {
    const result = await install(await svc("v1", "1.2.0"));
    expect(result.summary.author).toEqual({ signed: false });
    expect(result.summary.text.split("\n")[2]).toBe("! Unsigned: anyone could have made this.");
    const standing = await ledger.standing(ID);
    expect(standing.kind === "approved" && standing.approval.signer).toBe(undefined);
  });
});

describe("tampering: refused before anything reaches Extensions/", () => {
  it.each(["package.json", "dist/index.js", "dist/tools.json", "README.md"])("one byte changed in %s", async (name) => {
    const file = await svc("bad", "1.2.0", newKey(), (files) => {
      const data = Buffer.from(files.get(name)!);
      data[1] ^= 1;
      files.set(name, data);
    });
    expect(await refusal(file)).toBe(
      `cannot install bad.svc: refused: its files do not match what the author signed: "${name}" does not match the signed manifest`,
    );
    expect(shown).toEqual([]);
    await expect(readdir(join(support, "Extensions"))).rejects.toThrow("ENOENT");
  });

  it("a file added after signing, and a signature for another key's id", async () => {
    const added = await svc("added", "1.2.0", newKey(), (files) => files.set("dist/extra.js", Buffer.from("x")));
    expect(await refusal(added)).toBe(
      'cannot install added.svc: refused: its files do not match what the author signed: "dist/extra.js" is not in the signed manifest',
    );
    await expect(readdir(join(support, "Extensions"))).rejects.toThrow("ENOENT");
  });
});

describe("updates", () => {
  it("the same key: the usual update, the author known", async () => {
    const key = newKey();
    await install(await svc("v1", "1.2.0", key));
    const result = await install(await svc("v2", "1.3.0", key));
    expect(result.installed).toBe(true);
    expect(result.summary.text).toContain(
      `Signed by key ${shownKey(key)}: the same author as the installed version.\n`,
    );
    expect(result.summary.text).toContain("This updates the installed Deploys 1.2.0.");
    expect(await installedVersion()).toBe("1.3.0");
  });

  it("another key is refused: this is not from the author you installed", async () => {
    const author = newKey();
    const stranger = newKey();
    await install(await svc("v1", "1.2.0", author));
    expect(await refusal(await svc("v2", "1.3.0", stranger))).toBe(
      `cannot install v2.svc: this is not from the author you installed: it is signed with key ${shownKey(stranger)}, ` +
        `the installed version with key ${shownKey(author)}. To install it anyway, uninstall the installed one first (svc-host uninstall ${ID}).`,
    );
    expect(shown).toHaveLength(1);
    expect(await installedVersion()).toBe("1.2.0");
    const standing = await ledger.standing(ID);
    expect(standing.kind === "approved" && standing.approval.version).toBe("1.2.0");
  });

  it("an unsigned package never replaces a signed one", async () => {
    const author = newKey();
    await install(await svc("v1", "1.2.0", author));
    expect(await refusal(await svc("v2", "1.3.0"))).toBe(
      `cannot install v2.svc: it is unsigned, and the installed version is signed by its author (key ${shownKey(author)}); ` +
        "an unsigned package never replaces a signed one. Ask the author for a signed package.",
    );
    expect(await installedVersion()).toBe("1.2.0");
  });

  it("a signed package may replace an unsigned one: its key is new to you, and pinned from then on", async () => {
    const author = newKey();
    await install(await svc("v1", "1.2.0"));
    const result = await install(await svc("v2", "1.3.0", author));
    expect(result.summary.author).toMatchObject({ signed: true, newToYou: true });
    expect(await refusal(await svc("v3", "1.4.0", newKey()))).toMatch(/this is not from the author you installed/);
  });

  it("an older version is refused unless the person downgrades; the same version is allowed", async () => {
    const key = newKey();
    await install(await svc("v2", "1.3.0", key));
    const older = await svc("v1", "1.2.0", key);
    expect(await refusal(older)).toBe(
      "cannot install v1.svc: it is version 1.2.0, older than the installed 1.3.0; to go back to it, run again with --downgrade",
    );
    expect(await installedVersion()).toBe("1.3.0");
    expect((await install(await svc("again", "1.3.0", key))).installed).toBe(true);
    expect((await install(older, true)).installed).toBe(true);
    expect(await installedVersion()).toBe("1.2.0");
  });

  it("a prerelease of the installed version is older", async () => {
    await install(await svc("v2", "1.3.0"));
    expect(await refusal(await svc("beta", "1.3.0-beta.2"))).toBe(
      "cannot install beta.svc: it is version 1.3.0-beta.2, older than the installed 1.3.0; to go back to it, run again with --downgrade",
    );
  });
});
