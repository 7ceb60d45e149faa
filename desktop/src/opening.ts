/**
 * What the shell opens outside itself. Pages (an extension's `openURL`, a link in a blip or a
 * table row): http and https only, in the system browser. Files from result blocks: only from
 * allowed places (SPEC.md: an extension's `Data/<id>/`, or a file the person gave), symlinks
 * resolved; opened with the system's app only when their kind is on a short allowlist of inert
 * documents and pictures and they are not marked as programs; anything else is shown in its
 * folder (the person decides what to do with it there).
 */
import { realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, relative, sep } from "node:path";
import type { Shell } from "./electron-api.js";

/**
 * The only kinds of file the shell opens with the system's app: inert documents, pictures and
 * sound, whose usual app shows them and runs nothing. An allowlist, never a list of what is
 * dangerous: that list is never complete (`.pyw`, `.chm`, `.msc`, `.jnlp`, `.html`, `.svg`,
 * `.iso` … each runs or mounts something somewhere). Anything else is shown in its folder.
 */
export const OPENABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".txt",
  ".md",
  ".csv",
  ".tsv",
  ".log",
  ".json",
  ".pdf",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".bmp",
  ".mp3",
  ".wav",
  ".m4a",
  ".mp4",
  ".mov",
]);

export type OpenResult = { ok: true } | { ok: false; error: string };

/** The address as a browser page, or why it is not one. */
export function browserPage(url: unknown): URL | string {
  if (typeof url !== "string") return "an address should be text";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url.slice(0, 200))} is not an absolute address`;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:"
    ? parsed
    : `only http and https pages are opened, not ${parsed.protocol}`;
}

/**
 * @example
 * await openPage(shell, "https://ci.example.com/run/42"); // the system browser
 * await openPage(shell, "file:///etc/passwd");             // {ok: false, error: "only http and https pages are opened, not file:"}
 */
export async function openPage(shell: Pick<Shell, "openExternal">, url: unknown): Promise<OpenResult> {
  const page = browserPage(url);
  if (typeof page === "string") return { ok: false, error: page };
  try {
    await shell.openExternal(page.href);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: `could not open ${page.href}: ${(error as Error).message}` };
  }
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export interface FilePlaces {
  /** Folders whose files may be opened, e.g. `<support>/Data` (every extension's own folder). */
  folders: readonly string[];
  /** Single files the person gave (dropped) in this session. */
  files: ReadonlySet<string>;
}

/**
 * @example
 * await openFile(shell, "/Users/ann/Library/Application Support/Svc/Data/com.example.png/out.png", { folders: [dataDir], files: dropped });
 */
export async function openFile(
  shell: Pick<Shell, "openPath" | "showItemInFolder">,
  path: unknown,
  places: FilePlaces,
): Promise<OpenResult> {
  if (typeof path !== "string" || !isAbsolute(path))
    return { ok: false, error: "a file to open should be an absolute path" };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, error: `${path} does not exist` };
  }
  const folders = await Promise.all(places.folders.map((folder) => realpath(folder).catch(() => undefined)));
  const given = places.files.has(path) || places.files.has(real);
  if (!given && !folders.some((folder) => folder !== undefined && inside(folder, real))) {
    return {
      ok: false,
      error: `${path} is not in an extension's data folder or among the files you gave, so it is not opened`,
    };
  }
  const info = await stat(real);
  const kind = extname(real).toLowerCase();
  const why = !info.isFile()
    ? "it is not a file"
    : !OPENABLE_EXTENSIONS.has(kind)
      ? `svc opens only documents, pictures and sound (${[...OPENABLE_EXTENSIONS].join(" ")}), not ${kind || "a file without an extension"}`
      : (info.mode & 0o111) !== 0
        ? "it is marked as a program, and opening it could run it"
        : undefined;
  if (why) {
    shell.showItemInFolder(real);
    return { ok: false, error: `${path} is not opened: ${why}. It is shown in its folder instead.` };
  }
  const error = await shell.openPath(real);
  return error ? { ok: false, error: `could not open ${path}: ${error}` } : { ok: true };
}
