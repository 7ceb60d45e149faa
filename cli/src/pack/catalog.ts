/**
 * The first-party catalog: every catalog extension packed into one folder as a deterministic,
 * signed `.svc`, with `index.json` (schema in @svc/api) naming each package, its digest and the
 * key that signed them all. `extensions/build.mjs` runs it during `npm install`; the end-to-end
 * tests run it on their own fixture with a key of their own.
 *
 * Where the first-party key comes from (no secret is ever in the repository):
 * - `SVC_FIRST_PARTY_KEY`: a svckit key file (CI and releases; passphrase from SVC_KEY_PASSPHRASE);
 * - else a key this checkout makes once into an ignored folder, and keeps. The index says which,
 *   and the install review shows that key's fingerprint like any author's.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { CATALOG_FORMAT, CATALOG_INDEX_FILE, catalogIndexSchema, type CatalogEntry, type CatalogIndex } from "@svc/api";
import { keyFingerprint, keyIdText, keyWords, type SecretKey } from "@svc/api/signing";
import type { Output } from "../command.js";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { packExtension } from "./pack-extension.js";
import { keyFileText, newSecretKey, PASSPHRASE_ENV, readKeyFile } from "../sign/keys.js";

/** The environment variable naming the release key file. */
export const FIRST_PARTY_KEY_ENV = "SVC_FIRST_PARTY_KEY";
const LOCAL_KEY_FILE = "first-party.key";

/**
 * The key the catalog is signed with, and a sentence saying where it came from.
 *
 * @example
 * await firstPartyKey(process.env, "/repo/extensions/.first-party-key")
 * // { secret, source: "this checkout's own key (/repo/extensions/.first-party-key/first-party.key), made by the build: not a release key" }
 */
export async function firstPartyKey(
  env: Readonly<Record<string, string | undefined>>,
  localKeyDir: string,
): Promise<{ secret: SecretKey; source: string }> {
  const given = env[FIRST_PARTY_KEY_ENV];
  if (given) return { secret: await readKeyFile(given, env[PASSPHRASE_ENV]), source: FIRST_PARTY_KEY_ENV };
  const file = join(localKeyDir, LOCAL_KEY_FILE);
  const source = `this checkout's own key (${file}), made by the build: not a release key`;
  try {
    return { secret: await readKeyFile(file, undefined), source };
  } catch (error) {
    if (!(error instanceof CliError) || !/cannot read the key file .*: ENOENT$/.test(error.message)) throw error;
  }
  const secret = newSecretKey();
  await mkdir(localKeyDir, { recursive: true, mode: 0o700 });
  // In the clear, readable by its owner only: it signs this checkout's catalog and nothing else.
  await writeFileAtomic(file, keyFileText(secret, undefined), 0o600);
  return { secret, source };
}

export interface CatalogBuild {
  /** The extension folders to pack, each with its package.json. */
  folders: readonly string[];
  /** The catalog folder: its `.svc` files and `index.json` are replaced. */
  outDir: string;
  key: { secret: SecretKey; source: string };
  out: Output;
}

async function entryOf(folder: string, file: string): Promise<CatalogEntry> {
  const manifest = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
  const svc = manifest.svc as { id: string; title: string; description?: string; icon?: string };
  const description = typeof manifest.description === "string" ? manifest.description : svc.description;
  if (!description)
    throw new CliError(
      `${join(folder, "package.json")}: a catalog extension needs "description", the one sentence Settings shows`,
    );
  return {
    name: basename(folder),
    id: svc.id,
    version: String(manifest.version),
    title: svc.title,
    description,
    ...(svc.icon ? { icon: svc.icon } : {}),
    file: basename(file),
    sha256: createHash("sha256")
      .update(await readFile(file))
      .digest("hex"),
    manifest,
  };
}

/**
 * Packs every folder, then writes `index.json` last (atomically), naming only the packages that
 * were packed: one extension that does not build is left out (and named in `failures`), never
 * listed without its package, and never stops the others.
 *
 * @example
 * const { index, failures } = await packCatalog({ folders: ["/repo/extensions/weather"], outDir: "/repo/extensions/catalog", key, out });
 */
export async function packCatalog(
  build: CatalogBuild,
): Promise<{ index: CatalogIndex; failures: { folder: string; error: string }[] }> {
  await mkdir(build.outDir, { recursive: true });
  const packages: CatalogEntry[] = [];
  const failures: { folder: string; error: string }[] = [];
  for (const folder of build.folders) {
    try {
      const { file } = await packExtension(folder, build.outDir, build.out, async () => build.key.secret);
      packages.push(await entryOf(folder, file));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      failures.push({ folder, error: error.message });
    }
  }
  const kept = new Set(packages.map((p) => p.file));
  for (const name of await readdir(build.outDir))
    if (name.endsWith(".svc") && !kept.has(name)) await rm(join(build.outDir, name), { force: true });
  const { key } = build.key.secret;
  const index = catalogIndexSchema.parse({
    format: CATALOG_FORMAT,
    signedBy: {
      fingerprint: keyFingerprint(key),
      words: keyWords(key),
      keyId: keyIdText(build.key.secret.keyId),
      source: build.key.source,
    },
    packages,
  });
  await writeFileAtomic(join(build.outDir, CATALOG_INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
  return { index, failures };
}
