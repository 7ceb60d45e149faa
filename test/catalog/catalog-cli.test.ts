/**
 * The catalog without a page: the build's packages are deterministic and signed; `svc-host
 * catalog` lists them with what each can reach; `svc-host install <name>` reviews and installs
 * one, signed by the first-party key; a package changed after the build, or a name the catalog
 * does not have, is refused with why. Also: the repository's own extensions/ as npm install left
 * it (bundled.json, catalog/index.json).
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstPartyKey, packCatalog } from "svckit";
import { parseBundledList, parseCatalogIndex, type CatalogIndex } from "@svc/api";
import { makeWorld, REPO, type World } from "../host/harness.js";
import { cliEnv, svcHostCli } from "../host-trust/fixtures.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { FIXTURES } from "./pages.js";

const session = useSessionKeyring();
const QUOTES = join(FIXTURES, "quotes");
let dir: string;
let world: World;
let index: CatalogIndex;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-catalog-cli-"));
  world = await makeWorld();
  await writeFile(join(world.bundled, "bundled.json"), JSON.stringify({ onByDefault: [] }));
  const key = await firstPartyKey({}, join(dir, "key"));
  ({ index } = await packCatalog({ folders: [QUOTES], outDir: join(world.bundled, "catalog"), key, out: quiet }));
}, 120_000);
afterAll(async () => {
  await world.remove();
  await rm(dir, { recursive: true, force: true });
});

const env = () => cliEnv(world, session.bus.address);

describe("the catalog build", () => {
  it("packs the same bytes again with the same key, and names the key and where it came from", async () => {
    const key = await firstPartyKey({}, join(dir, "key"));
    expect(key.secret.key.equals((await firstPartyKey({}, join(dir, "key"))).secret.key)).toBe(true);
    const again = await packCatalog({ folders: [QUOTES], outDir: join(dir, "again"), key, out: quiet });
    expect(again).toEqual({ index, failures: [] });
    const file = index.packages[0].file;
    expect(file).toBe("svc-fixture-quotes-1.0.0.svc");
    expect(await readFile(join(dir, "again", file))).toEqual(await readFile(join(world.bundled, "catalog", file)));
    expect(index.signedBy.source).toBe(
      `this checkout's own key (${join(dir, "key", "first-party.key")}), made by the build: not a release key`,
    );
    expect(index.packages[0]).toMatchObject({
      name: "quotes",
      id: "test.svc.quotes",
      title: "Quotes",
      description: "A quote of the day from the Quotes service, in the language you choose.",
      icon: "quote.bubble",
    });
  });

  it("leaves out an extension that cannot be packed, saying why, and packs the others", async () => {
    const dev = join(dir, "dev-quotes");
    await cp(QUOTES, dev, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dev, "package.json"), "utf8"));
    manifest.svc.id = "dev.svc.quotes";
    await writeFile(join(dev, "package.json"), JSON.stringify(manifest));
    const key = await firstPartyKey({}, join(dir, "key"));
    const built = await packCatalog({ folders: [dev, QUOTES], outDir: join(dir, "mixed"), key, out: quiet });
    expect(built.index.packages.map((p) => p.name)).toEqual(["quotes"]);
    expect(built.failures).toEqual([
      {
        folder: dev,
        error:
          'svc.id "dev.svc.quotes" begins with "dev.svc.", which the app keeps for extensions in development, so it cannot be installed.\n' +
          'Give the extension its own reverse-DNS id in package.json, e.g. "com.yourname.quotes".',
      },
    ]);
    expect((await readdir(join(dir, "mixed"))).sort()).toEqual(["index.json", "svc-fixture-quotes-1.0.0.svc"]);
  });

  it("signs with SVC_FIRST_PARTY_KEY when it names a key file", async () => {
    const made = await firstPartyKey({}, join(dir, "release"));
    const given = await firstPartyKey(
      { SVC_FIRST_PARTY_KEY: join(dir, "release", "first-party.key") },
      join(dir, "unused"),
    );
    expect(given.source).toBe("SVC_FIRST_PARTY_KEY");
    expect(given.secret.key.equals(made.secret.key)).toBe(true);
    await expect(firstPartyKey({ SVC_FIRST_PARTY_KEY: join(dir, "missing.key") }, dir)).rejects.toThrow(
      `cannot read the key file ${join(dir, "missing.key")}: ENOENT`,
    );
  });
});

describe("svc-host catalog and install <name>", () => {
  it("lists each package with its sentence, reach and key, then installs one by name through the review", async () => {
    const listed = await svcHostCli(env(), ["catalog"]);
    const signed = `signed by ${index.signedBy.fingerprint} (${index.signedBy.words})`;
    expect(listed).toEqual({
      code: 0,
      stdout:
        "Quotes (quotes) 1.0.0\n" +
        "  A quote of the day from the Quotes service, in the language you choose.\n" +
        "  can: connect to quotes.example.com\n" +
        '  can: keep a secret you enter ("Access token") in your keychain\n' +
        `  ${signed}\n` +
        "  add it: svc-host install quotes\n",
      stderr: "",
    });
    const installed = await svcHostCli(env(), ["install", "quotes", "--yes"]);
    expect(installed.stderr).toBe("");
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(
      `Signed by key ${index.signedBy.fingerprint} (${index.signedBy.words}): new to you.`,
    );
    expect(installed.stdout).toContain(`Installed Quotes 1.0.0 in ${join(world.user, "test.svc.quotes")}`);
    expect((await svcHostCli(env(), ["catalog"])).stdout).toMatch(
      /^Quotes \(quotes\) 1\.0\.0 — added\n(?:.*\n)*  signed by [^\n]+\n$/,
    );
    const json = JSON.parse((await svcHostCli(env(), ["catalog", "--json"])).stdout);
    expect(json.packages[0]).toMatchObject({
      name: "quotes",
      installed: true,
      reach: [{ key: "network:quotes.example.com" }, { key: "password:token" }],
    });
  });

  it("refuses a name the catalog does not have, and a word it does not know", async () => {
    expect(await svcHostCli(env(), ["install", "nope", "--yes"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-host install: no catalog package named "nope"; there are: quotes\n',
    });
    expect(await svcHostCli(env(), ["catalog", "all"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-host catalog: unknown word all\nusage: svc-host catalog [--json]\n",
    });
  });

  it("refuses a package changed after the build, before any review", async () => {
    const other = await makeWorld();
    try {
      await cp(world.bundled, other.bundled, { recursive: true });
      const file = join(other.bundled, "catalog", index.packages[0].file);
      const bytes = await readFile(file);
      bytes[bytes.length - 30] ^= 1;
      await writeFile(file, bytes);
      expect(await svcHostCli(cliEnv(other, session.bus.address), ["install", "quotes", "--yes"])).toEqual({
        code: 1,
        stdout: "",
        stderr: `svc-host install: ${file} is not the package the catalog was built with (its SHA-256 differs from index.json): refused; build the catalog again: npm run build -w extensions\n`,
      });
      expect(await readdir(other.user)).toEqual([]);
    } finally {
      await other.remove();
    }
  });
});

describe("this repository's extensions/, as npm install leaves it", () => {
  const root = join(REPO, "extensions");
  const listed = parseBundledList(readFileSync(join(root, "bundled.json"), "utf8"), "extensions/bundled.json");

  it("runs focus, system and devtools by default", () => {
    expect(listed).toEqual({ ok: true, value: { onByDefault: ["devtools", "focus", "system"] } });
  });

  it("has every other extension folder in its signed catalog, each package as index.json says", async () => {
    const parsed = parseCatalogIndex(await readFile(join(root, "catalog", "index.json"), "utf8"), "index.json");
    if (!parsed.ok) throw new Error(parsed.error);
    const folders = (await readdir(root, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "catalog" && e.name !== "node_modules")
      .map((e) => e.name)
      .filter((name) => listed.ok && !listed.value.onByDefault.includes(name))
      .sort();
    expect(parsed.value.packages.map((p) => p.name).sort()).toEqual(folders);
    expect(parsed.value.signedBy.source).toMatch(
      /^(SVC_FIRST_PARTY_KEY|this checkout's own key \(.+\), made by the build: not a release key)$/,
    );
    for (const p of parsed.value.packages)
      expect(
        createHash("sha256")
          .update(await readFile(join(root, "catalog", p.file)))
          .digest("hex"),
      ).toBe(p.sha256);
  });

  it("has README.md's catalog gallery as scripts/catalog-gallery.mjs writes it (run it after adding one)", async () => {
    const run = promisify(execFile);
    await expect(
      run(process.execPath, [join(REPO, "scripts", "catalog-gallery.mjs"), "--check"]),
    ).resolves.toMatchObject({ stderr: "" });
  });
});
