/**
 * `permissions.files` and the data folder. Reads: inside a listed path, the extension's own
 * data folder, or a file the user gave to a tool run in progress. Writes and removals: inside
 * the data folder only. Every check works on the real path (symlinks resolved) and returns it:
 * the caller opens exactly the path that was checked.
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { CapabilityContext } from "./context.js";
import { deny } from "./denial.js";
import { expandHome, isInside, refusedPath, resolveListedPath } from "./listed-paths.js";

/** Longest path a guest may pass, in characters. */
export const MAX_PATH_CHARS = 4096;

export { expandHome, isInside } from "./listed-paths.js";

/** The absolute path a guest means: `~` expanded, relative paths against the data folder. */
export function absoluteGuestPath(cx: CapabilityContext, op: string, raw: string): string {
  if (raw.length === 0 || raw.length > MAX_PATH_CHARS) {
    throw new TypeError(`${op}: "path" should be 1 to ${MAX_PATH_CHARS} characters long`);
  }
  if (raw.includes("\0")) throw new TypeError(`${op}: "path" contains a NUL character`);
  return resolve(cx.dataDir, expandHome(raw));
}

/** A path passes through a symlink to nothing: writing through it would create its target. */
class DanglingLinkError extends Error {}

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
      if (link?.isSymbolicLink()) throw new DanglingLinkError();
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Real paths of the places this sandbox may read, resolved at each read (a listed folder made or
 * relinked later counts as it is then). Listed paths that do not exist are left out.
 */
async function readRoots(cx: CapabilityContext): Promise<{ folders: string[]; files: string[] }> {
  const listed = cx.permissions.files.map((entry) => resolveListedPath(entry)).filter((entry) => entry.exists);
  const given = await Promise.all(
    cx.toolFiles().map((p) => (isAbsolute(p) ? realpath(p).catch(() => undefined) : undefined)),
  );
  return {
    folders: [cx.dataDir, ...listed.map((entry) => entry.path!)],
    files: given.filter((p): p is string => p !== undefined),
  };
}

/** True when the real path `real` lies in svc's own folder, outside this extension's data folder. */
function inSvcFolder(cx: CapabilityContext, real: string): boolean {
  return refusedPath(real, { supportDir: cx.supportDir, dataDir: cx.dataDir });
}

/**
 * True when the real path `real` may be read. Also used on an opened descriptor's own path
 * (files.ts), so a folder swapped for a symlink between the check and the open is caught.
 * svc's own folder is refused first, whatever is listed or given.
 */
export async function mayRead(cx: CapabilityContext, real: string): Promise<boolean> {
  if (inSvcFolder(cx, real)) return false;
  const roots = await readRoots(cx);
  return roots.folders.some((root) => isInside(real, root)) || roots.files.some((file) => isInside(real, file));
}

/** Why a read inside svc's own folder is refused, after `"<path>" is` (or `leads`). */
const SVC_FOLDER_REASON =
  "inside svc's own folder (its token, its settings, every extension's files), which no extension may read but for its own data folder";

/**
 * Error texts name only what the guest gave: never the home folder it did not type, never
 * where a symlink leads (a guest could map the disk by reading denials).
 */
function resolveFailure(cx: CapabilityContext, raw: string, error: Error): Error {
  const reason =
    error instanceof DanglingLinkError
      ? `"${raw}" passes through a symlink to something that does not exist`
      : `"${raw}" could not be resolved (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  return deny(cx, { kind: "file", target: raw, reason });
}

/** The fix for a read outside the allowed folders: the guest's own folder, when it named one plainly. */
function readFix(raw: string, absolute: string, real: string): string {
  const folder = real === absolute ? dirname(raw.startsWith("~") || isAbsolute(raw) ? raw : absolute) : undefined;
  return folder
    ? `add "${folder}" to svc.permissions.files in package.json`
    : "add the folder to svc.permissions.files in package.json";
}

/**
 * Checks a read (or list, or exists) of `raw`. Returns the real path to use.
 * @example const real = await checkRead(cx, "files.read", "~/notes/today.md");
 */
export async function checkRead(
  cx: CapabilityContext,
  op: string,
  raw: string,
): Promise<{ real: string; exists: boolean }> {
  const absolute = absoluteGuestPath(cx, op, raw);
  const found = await realPathOf(absolute).catch((error: Error) => {
    throw resolveFailure(cx, raw, error);
  });
  if (await mayRead(cx, found.real)) return found;
  if (inSvcFolder(cx, found.real)) {
    throw deny(cx, {
      kind: "file",
      target: raw,
      reason: `"${raw}" ${found.real === absolute ? "is" : "leads"} ${SVC_FOLDER_REASON}`,
      fix: "keep the extension's files under ctx.dataDir",
    });
  }
  throw deny(cx, {
    kind: "file",
    target: raw,
    reason: `"${raw}" ${found.real === absolute ? "is" : "leads"} outside permissions.files, the data folder and the files given to this tool run`,
    fix: readFix(raw, absolute, found.real),
  });
}

/** Like `realPathOf`, but a symlink in the last place is the thing itself, not its target. */
async function realPathOfEntry(absolute: string): Promise<{ real: string; exists: boolean }> {
  const parent = await realPathOf(dirname(absolute));
  const real = join(parent.real, basename(absolute));
  return {
    real,
    exists:
      parent.exists &&
      (await lstat(real).then(
        () => true,
        () => false,
      )),
  };
}

/**
 * Names at the top of the data folder that the runtime owns, as files or folders, with their
 * corrupt copies and temporary files: a guest that rewrote `seq.json` could send its own blips'
 * seq backwards, `storage.json` is only reached through ctx.storage, and a folder named
 * `seq.json` would break the extension for good.
 */
const RESERVED_NAME = /^\.?(?:seq|storage)\.json(?:\..*)?$/;

/** True when `name`, the first part of a path inside the data folder, belongs to svc. */
export function isReservedName(name: string): boolean {
  return RESERVED_NAME.test(name);
}

/**
 * Checks a write (or, with `followLast: false`, a removal) of `raw`: the real path must be
 * inside the data folder, and not be the data folder itself. Returns the real path to use.
 * @example const real = await checkWrite(cx, "files.write", "out/report.csv");
 */
export async function checkWrite(
  cx: CapabilityContext,
  op: string,
  raw: string,
  { followLast = true } = {},
): Promise<{ real: string; exists: boolean }> {
  const absolute = absoluteGuestPath(cx, op, raw);
  const reserved = (path: string) =>
    isInside(path, cx.dataDir) &&
    path !== cx.dataDir &&
    isReservedName(path.slice(cx.dataDir.length + 1).split(sep)[0]);
  // Checked on the path as given and on the real path (`seq.json/x` does not resolve at all).
  const found = reserved(absolute)
    ? undefined
    : await (followLast ? realPathOf(absolute) : realPathOfEntry(absolute)).catch((error: Error) => {
        throw resolveFailure(cx, raw, error);
      });
  if (found === undefined || reserved(found.real)) {
    throw deny(cx, {
      kind: "file",
      target: raw,
      reason: `"${raw}" is a name in the data folder that belongs to svc (blip seq numbers and ctx.storage)`,
      fix: "use ctx.storage, or write under another name",
    });
  }
  if (isInside(found.real, cx.dataDir) && found.real !== cx.dataDir) return found;
  throw deny(cx, {
    kind: "file",
    target: raw,
    reason:
      found.real === cx.dataDir
        ? "the data folder itself cannot be written or removed"
        : `"${raw}" ${found.real === absolute ? "is" : "leads"} outside the data folder, the only place an extension may write`,
    fix: found.real === cx.dataDir ? undefined : "write under ctx.dataDir instead",
  });
}
