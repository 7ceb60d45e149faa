/**
 * The catalog: first-party packages that ship with svc but do not run until the person adds
 * one. Each bundled root may hold `catalog/index.json` (written by the build, schema in
 * @svc/api) beside the signed `.svc` files it names. The listing says what each package is and
 * can reach — computed by `reachOf`, the function the install review and the fence use — and
 * adding one goes through the same install review as any `.svc`.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  CATALOG_FOLDER,
  CATALOG_INDEX_FILE,
  parseCatalogIndex,
  parseManifest,
  type CatalogEntry,
  type CatalogIndex,
} from "@svc/api";
import { reachOf, type ReachItem } from "../install/index.js";
import { supportPaths } from "../support/index.js";

/** One package as Settings and `svc-host catalog` list it. */
export interface CatalogListing {
  /** The folder name: `svc-host install <name>` and the page's Add send it. */
  name: string;
  id: string;
  title: string;
  version: string;
  /** The one sentence (package.json's `description`). */
  description: string;
  icon?: string;
  reach: ReachItem[];
  /** Already in the support folder's `Extensions/`. */
  installed: boolean;
  /** Who signed it: the first-party key's fingerprint and words, and where that key came from. */
  signedBy: CatalogIndex["signedBy"];
}

/** What the catalogs of the bundled roots hold, and what is wrong with any of them. */
export interface Catalogs {
  packages: { entry: CatalogEntry; folder: string; signedBy: CatalogIndex["signedBy"] }[];
  problems: string[];
}

/**
 * Reads `<root>/catalog/index.json` of each bundled root; a root without one has no catalog. The
 * first root naming a package wins (as a bundled extension's folder would).
 *
 * @example
 * (await readCatalogs(["/repo/extensions"])).packages.map((p) => p.entry.name) // ["weather", …]
 */
export async function readCatalogs(bundled: readonly string[]): Promise<Catalogs> {
  const found: Catalogs = { packages: [], problems: [] };
  for (const root of bundled) {
    const folder = join(root, CATALOG_FOLDER);
    const file = join(folder, CATALOG_INDEX_FILE);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        found.problems.push(`${file} cannot be read: ${(error as Error).message}`);
      continue;
    }
    const parsed = parseCatalogIndex(text, file);
    if (!parsed.ok) {
      found.problems.push(parsed.error);
      continue;
    }
    for (const entry of parsed.value.packages)
      if (!found.packages.some((p) => p.entry.name === entry.name))
        found.packages.push({ entry, folder, signedBy: parsed.value.signedBy });
  }
  return found;
}

/**
 * Every catalog package with what it can reach, judged for this support folder.
 *
 * @example
 * (await catalogListing(["/repo/extensions"], supportDir)).packages[0].reach // [{ key: "network:api.met.no", text: "connect to api.met.no" }]
 */
export async function catalogListing(
  bundled: readonly string[],
  supportDir: string,
): Promise<{ packages: CatalogListing[]; problems: string[] }> {
  const { packages: found, problems } = await readCatalogs(bundled);
  const listing: CatalogListing[] = [];
  for (const { entry, signedBy } of found) {
    const manifest = parseManifest(entry.manifest);
    if (!manifest.ok) {
      problems.push(
        `catalog package ${entry.name}: ${manifest.error}; build the catalog again: npm run build -w extensions`,
      );
      continue;
    }
    const installed = await stat(join(supportPaths(supportDir).extensions, entry.id)).then(
      () => true,
      () => false,
    );
    listing.push({
      name: entry.name,
      id: entry.id,
      title: entry.title,
      version: entry.version,
      description: entry.description,
      ...(entry.icon ? { icon: entry.icon } : {}),
      reach: reachOf(manifest.manifest, { supportDir }),
      installed,
      signedBy,
    });
  }
  return { packages: listing, problems };
}

/** A catalog name or its package could not be used; the message says why and what to do. */
export class CatalogError extends Error {}

/**
 * The `.svc` of catalog package `name`, after checking it is the file the build listed (its
 * SHA-256): a package changed after the build is refused, never reviewed.
 *
 * @example
 * await catalogPackage(["/repo/extensions"], "weather") // "/repo/extensions/catalog/svc-weather-1.0.0.svc"
 */
export async function catalogPackage(bundled: readonly string[], name: string): Promise<string> {
  const { packages, problems } = await readCatalogs(bundled);
  const found = packages.find((p) => p.entry.name === name);
  if (!found) {
    const names = packages.map((p) => p.entry.name);
    throw new CatalogError(
      `no catalog package named ${JSON.stringify(name.slice(0, 64))}; ` +
        (names.length
          ? `there are: ${names.join(", ")}`
          : `the catalog is empty${problems.length ? ` (${problems[0]})` : ""}`),
    );
  }
  const path = join(found.folder, found.entry.file);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CatalogError(
      `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); build the catalog again: npm run build -w extensions`,
    );
  }
  if (createHash("sha256").update(bytes).digest("hex") !== found.entry.sha256)
    throw new CatalogError(
      `${path} is not the package the catalog was built with (its SHA-256 differs from index.json): refused; build the catalog again: npm run build -w extensions`,
    );
  return path;
}
