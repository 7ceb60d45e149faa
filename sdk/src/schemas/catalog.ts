/**
 * The two files that make a folder of bundled extensions (this repository's `extensions/`, an
 * app's `Resources/Extensions`) into "a few on by default, the rest a catalog":
 *
 * - `bundled.json`, written by hand: which of the root's folders run on a fresh svc. Every other
 *   extension folder there is a catalog package, offered in Settings → Add extensions.
 * - `catalog/index.json`, written by the build (`extensions/build.mjs`, svckit's `packCatalog`):
 *   one signed `.svc` per catalog package, and the key that signed them all.
 *
 * Read by the build (svckit), the host (discovery and the catalog) and the page (as types).
 */
import { z } from "zod";
import { maxChars } from "./text.js";
import { displayLine, displayParagraph, nonEmptyDisplayLine } from "../display/display-text.js";
import { LIMITS } from "./limits.js";

/** A bundled root's list of the folders that run by default. */
export const BUNDLED_LIST_FILE = "bundled.json";
/** The catalog's folder inside a bundled root, and its index there. */
export const CATALOG_FOLDER = "catalog";
export const CATALOG_INDEX_FILE = "index.json";
export const CATALOG_FORMAT = "svc catalog 1";

/** A folder name directly inside the root: no separators, no dot-names. */
const folderName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, { error: "should be a folder name like focus (lowercase, no slashes)" });

/** `bundled.json`: `{"onByDefault": ["focus", "system", "devtools"]}`. */
export const bundledListSchema = z.strictObject({
  onByDefault: z.array(folderName).max(LIMITS.manifestListEntries),
});
export type BundledList = z.infer<typeof bundledListSchema>;

/** One catalog package: what the list shows before anyone opens it, and where its `.svc` is. */
export const catalogEntrySchema = z.strictObject({
  /** The extension's folder name (`weather`): what `svc-host install weather` takes. */
  name: folderName,
  id: z.string().max(128),
  version: z.string().max(64),
  title: nonEmptyDisplayLine.pipe(maxChars(LIMITS.manifestTitleChars)),
  /** The one sentence shown: package.json's `description` (else `svc.description`). */
  description: displayParagraph.pipe(maxChars(LIMITS.manifestDescriptionChars)),
  icon: displayLine.pipe(maxChars(LIMITS.manifestValueChars)).optional(),
  /** The `.svc` file beside the index. */
  file: z.string().regex(/^[A-Za-z0-9._-]+\.svc$/, { error: "should be a .svc file name beside index.json" }),
  /** SHA-256 (hex) of that file: the host refuses a package that changed after the build. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The package's package.json as packed: the list's reach is computed from it, as the review's is. */
  manifest: z.record(z.string(), z.unknown()),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

/** `catalog/index.json`. */
export const catalogIndexSchema = z.strictObject({
  format: z.literal(CATALOG_FORMAT),
  /** The first-party key every package here is signed with, and where that key came from. */
  signedBy: z.strictObject({
    fingerprint: z.string(),
    words: z.string(),
    keyId: z.string(),
    /** `SVC_FIRST_PARTY_KEY` (a release key) or `this checkout's own key (…)`: said in the listing. */
    source: z.string().max(200),
  }),
  packages: z.array(catalogEntrySchema).max(256),
});
export type CatalogIndex = z.infer<typeof catalogIndexSchema>;
