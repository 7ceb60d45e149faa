/**
 * `svckit dev` makes the extension visible to the app by a symlink
 * `<support>/Extensions/<id>` → the extension folder; the host watches that folder and
 * reloads the extension whenever the build rewrites `dist/`.
 */
import { watch } from "node:fs";
import { lstat, mkdir, readlink, rename, rm, symlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { CliError } from "../errors.js";

/**
 * Links `dir` into `<support>/Extensions/<id>`, replacing an older dev link (never an
 * installed extension's folder). Returns the link's path and, when it replaced one, where
 * the old link pointed.
 *
 * @example
 * const { link } = await linkExtension("/Users/ann/Library/Application Support/Svc", "com.ann.deploys", "/src/deploys");
 */
export async function linkExtension(
  support: string,
  id: string,
  dir: string,
): Promise<{ link: string; replaced?: string }> {
  const extensions = join(support, "Extensions");
  const link = join(extensions, id);
  await mkdir(extensions, { recursive: true });
  let replaced: string | undefined;
  const existing = await lstat(link).catch(() => undefined);
  if (existing && !existing.isSymbolicLink()) {
    throw new CliError(
      `${link} is an installed extension with the id "${id}", not a dev link.\n` +
        "Remove it (uninstall it in the app) or give this extension another svc.id.",
    );
  }
  if (existing) {
    const target = resolve(extensions, await readlink(link));
    if (target !== resolve(dir)) replaced = target;
  }
  // A new link under a temporary name, then a rename: the host never sees the folder missing.
  const temp = join(extensions, `.${id}.${process.pid}.link`);
  await rm(temp, { force: true });
  await symlink(resolve(dir), temp, process.platform === "win32" ? "junction" : "dir");
  await rename(temp, link);
  return { link, replaced };
}

/**
 * Removes the link if it still points at `dir` (another `svckit dev` may have taken it over).
 *
 * @example
 * await unlinkExtension(link, "/src/deploys");
 */
export async function unlinkExtension(link: string, dir: string): Promise<boolean> {
  const target = await readlink(link).catch(() => undefined);
  if (target === undefined || resolve(link, "..", target) !== resolve(dir)) return false;
  await rm(link, { force: true });
  return true;
}

/**
 * Calls `onLost` once when the link stops pointing at `dir`: another `svckit dev` took it over,
 * or an install of the same id put its folder there. The builds of `dir` then no longer reach
 * the app, which the person must hear. Returns a function that stops watching.
 *
 * @example
 * const stop = watchLink(link, "/src/deploys", (now) => console.warn(now));
 */
export function watchLink(link: string, dir: string, onLost: (now: string) => void): () => void {
  let told = false;
  const check = async () => {
    if (told) return;
    const entry = await lstat(link).catch(() => undefined);
    if (entry === undefined) return; // removed (svckit dev's own stop, or svc-host uninstall): nothing to compete with
    const now = entry.isSymbolicLink() ? resolve(link, "..", await readlink(link)) : "an installed extension";
    if (now === resolve(dir)) return;
    told = true;
    onLost(now);
  };
  const watcher = watch(dirname(link), () => void check());
  watcher.on("error", () => watcher.close());
  return () => watcher.close();
}
