/**
 * The `.svc` file: a zip of what the app needs to install an extension and nothing else —
 * `package.json`, `dist/` without source maps, and the README and licence when present.
 */
import { createWriteStream } from "node:fs";
import { readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";
import { STATEMENT_FILES } from "@svc/api/signing";

/** Top-level files that travel with the extension when present. */
const EXTRA_FILE = /^(readme|licen[cs]e|copying)(\.(md|txt|markdown))?$/i;
/** The author's signed statements (a key rotation, a revocation, a lost key) travel in every later package. */
const STATEMENT_FILE = new Set(Object.values(STATEMENT_FILES).flatMap((name) => [name, `${name}.minisig`]));

/**
 * Paths (relative, with `/`) that go into the archive, sorted.
 *
 * @example
 * await packFiles("/ext") // ["LICENSE", "README.md", "dist/index.js", "dist/tools.json", "package.json"]
 */
export async function packFiles(dir: string): Promise<string[]> {
  const top = await readdir(dir, { withFileTypes: true });
  const files = top
    .filter((e) => e.isFile() && (e.name === "package.json" || EXTRA_FILE.test(e.name) || STATEMENT_FILE.has(e.name)))
    .map((e) => e.name);
  files.push(...(await filesUnder(dir, "dist")).filter((path) => !path.endsWith(".map")));
  return files.sort();
}

async function filesUnder(root: string, relative: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(root, relative), { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesUnder(root, path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** A fixed timestamp and mode, so packing the same files twice gives the same bytes. */
const FIXED_MTIME = new Date("2000-01-01T00:00:00Z");
const FIXED_MODE = 0o100644;

/**
 * Reads `files` (relative to `dir`) into memory: what gets signed is exactly what gets zipped.
 *
 * @example
 * const contents = await readPackFiles("/ext", await packFiles("/ext"));
 */
export async function readPackFiles(dir: string, files: readonly string[]): Promise<Map<string, Buffer>> {
  const contents = new Map<string, Buffer>();
  for (const file of files) contents.set(file, await readFile(join(dir, file)));
  return contents;
}

/**
 * Writes the zip of `contents` (path → bytes) to `outPath` atomically. Deterministic: entries
 * sorted by name, a fixed time and mode, no folder entries, so the same inputs give the same
 * bytes on any machine with the same zlib, and a reviewer can rebuild and compare digests.
 *
 * @example
 * await writeArchive(await readPackFiles("/ext", await packFiles("/ext")), "/ext/my-ext-1.0.0.svc");
 */
export async function writeArchive(contents: ReadonlyMap<string, Buffer>, outPath: string): Promise<void> {
  const zip = new ZipFile();
  for (const name of [...contents.keys()].sort()) {
    zip.addBuffer(contents.get(name)!, name, { mtime: FIXED_MTIME, mode: FIXED_MODE });
  }
  zip.end();
  const temp = `${outPath}.${process.pid}.tmp`;
  try {
    await pipeline(zip.outputStream, createWriteStream(temp));
    await rename(temp, outPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
