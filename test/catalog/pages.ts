/**
 * The catalog's end-to-end pages: every `extensions/<name>/test/page.json` (the catalog
 * extensions') and this folder's fixtures' own, read and checked. page.json says how a person
 * gets the extension's first blip from a fresh svc:
 *
 * ```json
 * { "recording": "test/recordings/x.json",   // its API's answers (svckit test's format); optional
 *   "now": "2025-06-10T09:20:00Z",             // the extension's clock starts here (when the recording was made); optional
 *   "preferences": { "<name>": "<value>" },   // options set in Settings (a url option is then allowed)
 *   "secrets": { "<name>": "<value>" },       // password options, typed into Settings (kept in the keyring);
 *                                             // "preferences" may hold them too: both are typed in the same way
 *   "signedIn": false,                        // a sign-in: not possible offline yet, refused with why
 *   "expect": { "blip": "<key>", "text": "<text the page shows in that blip>" } }
 * ```
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseManifest, type Manifest } from "@svc/api";
import { z } from "zod";
import { REPO } from "../host/harness.js";

export const FIXTURES = join(REPO, "test", "catalog", "fixture");

const pageSchema = z.strictObject({
  recording: z.string().regex(/^[^/]/, { error: "should be a path inside the extension's folder" }).optional(),
  now: z.iso.datetime({ offset: true }).optional(),
  preferences: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  secrets: z.record(z.string(), z.string()).default({}),
  signedIn: z.boolean().default(false),
  expect: z.strictObject({ blip: z.string().min(1), text: z.string().min(1) }),
});

export interface CatalogPage {
  /** The extension's folder name: its catalog name and its screenshots' name. */
  name: string;
  folder: string;
  manifest: Manifest;
  page: z.infer<typeof pageSchema>;
  /** The recording's absolute path, when there is one. */
  recording?: string;
}

function readPage(folder: string, name: string): CatalogPage {
  const file = join(folder, "test", "page.json");
  const parsed = pageSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  const manifest = parseManifest(JSON.parse(readFileSync(join(folder, "package.json"), "utf8")));
  if (!manifest.ok) throw new Error(`${join(folder, "package.json")}: ${manifest.error}`);
  const page = parsed.data;
  const options = new Map(manifest.manifest.svc.preferences.map((p) => [p.name, p.type]));
  for (const [name, kind] of [
    ...Object.keys(page.preferences).map((n) => [n, "preferences"] as const),
    ...Object.keys(page.secrets).map((n) => [n, "secrets"] as const),
  ]) {
    const type = options.get(name);
    if (type === undefined)
      throw new Error(`${file}: "${kind}.${name}" is not an option of ${manifest.manifest.svc.id}`);
    if (kind === "secrets" && type !== "password")
      throw new Error(
        `${file}: "secrets.${name}" is a ${type} option: "secrets" holds password options; put it in "preferences"`,
      );
  }
  const recording = page.recording === undefined ? undefined : join(folder, page.recording);
  if (recording && !existsSync(recording))
    throw new Error(`${file}: "recording" names ${recording}, which does not exist`);
  return { name, folder, manifest: manifest.manifest, page, ...(recording ? { recording } : {}) };
}

/** Folders directly in `root` that hold test/page.json, sorted by name. */
function pagesIn(root: string): CatalogPage[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, "test", "page.json")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => readPage(join(root, name), name));
}

/** Every catalog extension's page (extensions/*), then the fixtures'. */
export function catalogPages(): CatalogPage[] {
  return [...pagesIn(join(REPO, "extensions")), ...pagesIn(FIXTURES)];
}
