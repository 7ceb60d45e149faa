/**
 * `permissions.files` and the data folder. Reads: inside a listed path, the extension's own
 * data folder, or a file the user gave to a tool run in progress. Writes and removals: inside
 * the data folder only. Every check works on the real path (symlinks resolved) and returns it:
 * the caller opens exactly the path that was checked.
 */
import { lstat, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { CapabilityContext } from "./index.js";
import { deny } from "./denial.js";

/** Longest path a guest may pass, in characters. */
export const MAX_PATH_CHARS = 4096;

/** Expands a leading `~` the way the manifest allows it. */
export function expandHome(path: string): string {
  if (path === "~") return homedir();
  return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/** True when `path` is `root` or below it. Both are real, absolute paths. */
export function isInside(path: string, root: string): boolean {
  if (root === sep) return true;
  return path === root || path.startsWith(root + sep);
}

/** The absolute path a guest means: `~` expanded, relative paths against the data folder. */
export function absoluteGuestPath(cx: CapabilityContext, op: string, raw: string): string {
  if (raw.length === 0 || raw.length > MAX_PATH_CHARS) {
    throw new TypeError(`${op}: "path" should be 1 to ${MAX_PATH_CHARS} characters long`);
  }
  if (raw.includes("\0")) throw new TypeError(`${op}: "path" contains a NUL character`);
  return resolve(cx.dataDir, expandHome(raw));
}

/**
 * The real path of `absolute`, even when its last parts do not exist yet: the nearest existing
 * ancestor is resolved and the missing names appended. A dangling symlink on the way is refused,
 * since writing through it would create its target wherever it points.
 */
export async function realPathOf(absolute: string): Promise<{ real: string; exists: boolean }> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return { real: missing.length ? join(real, ...missing.reverse()) : real, exists: missing.length === 0 };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      const link = await lstat(current).catch(() => undefined);
      if (link?.isSymbolicLink()) throw new Error(`"${current}" is a symlink to something that does not exist`);
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Real paths of the places this sandbox may read. Paths that do not exist are left out. */
async function readRoots(cx: CapabilityContext): Promise<{ folders: string[]; files: string[] }> {
  const real = async (p: string) => (isAbsolute(p) ? realpath(p).catch(() => undefined) : undefined);
  const listed = await Promise.all(cx.permissions.files.map((p) => real(expandHome(p))));
  const given = await Promise.all(cx.toolFiles().map(real));
  return {
    folders: [cx.dataDir, ...listed.filter((p): p is string => p !== undefined)],
    files: given.filter((p): p is string => p !== undefined),
  };
}

function describePath(absolute: string, real: string): string {
  return real === absolute ? `"${absolute}"` : `"${absolute}" leads to "${real}", which`;
}

/**
 * Checks a read (or list, or exists) of `raw`. Returns the real path to use.
 * @example const real = await checkRead(cx, "files.read", "~/notes/today.md");
 */
export async function checkRead(cx: CapabilityContext, op: string, raw: string): Promise<{ real: string; exists: boolean }> {
  const absolute = absoluteGuestPath(cx, op, raw);
  const found = await realPathOf(absolute).catch((error: Error) => {
    throw deny(cx, { kind: "file", target: absolute, reason: error.message });
  });
  const roots = await readRoots(cx);
  const allowed = roots.folders.some((root) => isInside(found.real, root))
    || roots.files.some((file) => isInside(found.real, file));
  if (allowed) return found;
  throw deny(cx, {
    kind: "file",
    target: absolute,
    reason: `${describePath(absolute, found.real)} is outside permissions.files, the data folder and the files given to this tool run`,
    fix: `add "${dirname(found.real)}" to svc.permissions.files in package.json`,
  });
}

/** Like `realPathOf`, but a symlink in the last place is the thing itself, not its target. */
async function realPathOfEntry(absolute: string): Promise<{ real: string; exists: boolean }> {
  const parent = await realPathOf(dirname(absolute));
  const real = join(parent.real, basename(absolute));
  return { real, exists: parent.exists && (await lstat(real).then(() => true, () => false)) };
}

/**
 * Checks a write (or, with `followLast: false`, a removal) of `raw`: the real path must be
 * inside the data folder, and not be the data folder itself. Returns the real path to use.
 * @example const real = await checkWrite(cx, "files.write", "out/report.csv");
 */
/**
 * Files at the top of the data folder that the runtime owns: a guest that rewrote `seq.json`
 * could send its own blips' seq backwards, and `storage.json` is only reached through ctx.storage.
 */
const RESERVED_FILES = new Set(["seq.json", "storage.json"]);

export async function checkWrite(
  cx: CapabilityContext,
  op: string,
  raw: string,
  { followLast = true } = {},
): Promise<{ real: string; exists: boolean }> {
  const absolute = absoluteGuestPath(cx, op, raw);
  const found = await (followLast ? realPathOf(absolute) : realPathOfEntry(absolute)).catch((error: Error) => {
    throw deny(cx, { kind: "file", target: absolute, reason: error.message });
  });
  if (RESERVED_FILES.has(found.real.slice(cx.dataDir.length + 1))) {
    throw deny(cx, {
      kind: "file",
      target: absolute,
      reason: `${basename(found.real)} in the data folder belongs to svc (blip seq numbers and ctx.storage)`,
      fix: "use ctx.storage, or write under another name",
    });
  }
  if (isInside(found.real, cx.dataDir) && found.real !== cx.dataDir) return found;
  throw deny(cx, {
    kind: "file",
    target: absolute,
    reason: found.real === cx.dataDir
      ? "the data folder itself cannot be written or removed"
      : `${describePath(absolute, found.real)} is outside the data folder, the only place an extension may write`,
    fix: found.real === cx.dataDir ? undefined : "write under ctx.dataDir instead",
  });
}
