/**
 * The digest of every file of an installed package: one SHA-256 per file, by its path inside
 * the folder (`/`-separated). A symlink inside the package is recorded by its target, never
 * followed. Reading stops past the package limits (an installed package was checked against
 * them), so a folder stuffed with files costs a bounded read and counts as changed.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { join, relative, sep } from "node:path";
import { PACKAGE_LIMITS } from "../review/index.js";

/** Path inside the package → `sha256:<hex>`, `symlink:<target>` or `other` (a socket, a pipe…). */
export type FileDigests = Record<string, string>;

/** What differs between two sets of file digests. */
export interface FileChanges {
  changed: string[];
  added: string[];
  removed: string[];
}

/** Thrown when a folder holds more than an installed package may. */
export class TooManyFiles extends Error {
  override readonly name = "TooManyFiles";
}

/** Files up to this size are read whole; larger ones are streamed (a file on disk has no size cap). */
const READ_WHOLE_BYTES = 1024 * 1024;
/** Files hashed at once. */
const AT_ONCE = 16;

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  if ((await stat(path)).size <= READ_WHOLE_BYTES) hash.update(await readFile(path));
  else for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest("hex")}`;
}

async function digestOf(root: string, entry: Dirent): Promise<[string, string]> {
  const path = join(entry.parentPath, entry.name);
  const name = relative(root, path).split(sep).join("/");
  if (entry.isSymbolicLink()) return [name, `symlink:${await readlink(path)}`];
  if (entry.isFile()) return [name, await sha256Of(path)];
  return [name, "other"];
}

/**
 * @example
 * await digestFiles("/…/Extensions/com.example.ci")
 * // { "package.json": "sha256:9f…", "dist/index.js": "sha256:04…" }
 */
export async function digestFiles(folder: string): Promise<FileDigests> {
  // A dev link or an installed folder alike: the files are read where the folder really is.
  const root = await realpath(folder);
  const entries = (await readdir(root, { withFileTypes: true, recursive: true })).filter(
    (entry) => !entry.isDirectory(),
  );
  if (entries.length > PACKAGE_LIMITS.entries)
    throw new TooManyFiles(`it holds ${entries.length} files, more than a package may (${PACKAGE_LIMITS.entries})`);
  const digests: [string, string][] = [];
  for (let at = 0; at < entries.length; at += AT_ONCE)
    digests.push(...(await Promise.all(entries.slice(at, at + AT_ONCE).map((entry) => digestOf(root, entry)))));
  return Object.fromEntries(digests.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * @example
 * compareFiles({ "package.json": "sha256:1" }, { "package.json": "sha256:2", "x.js": "sha256:3" })
 * // { changed: ["package.json"], added: ["x.js"], removed: [] }
 */
export function compareFiles(approved: FileDigests, now: FileDigests): FileChanges {
  const changes: FileChanges = { changed: [], added: [], removed: [] };
  for (const [name, digest] of Object.entries(now)) {
    if (!Object.hasOwn(approved, name)) changes.added.push(name);
    else if (approved[name] !== digest) changes.changed.push(name);
  }
  for (const name of Object.keys(approved)) if (!Object.hasOwn(now, name)) changes.removed.push(name);
  return changes;
}

/** True when nothing differs. */
export function noChanges(changes: FileChanges): boolean {
  return changes.changed.length + changes.added.length + changes.removed.length === 0;
}
