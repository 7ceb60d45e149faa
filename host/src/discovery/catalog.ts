/**
 * Finding every extension: scan each root's folders (symlinks followed), read each, and pick one
 * winner per id. A user extension overrides a bundled one with the same id; two folders with
 * the same id in one root keep the first by folder name and list the other as broken.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { readExtensionFolder } from "./read-folder.js";
import { readBundledList } from "./bundled-list.js";
import { BUNDLED_LIST_FILE } from "@svc/api";
import type { Catalog, DiscoveredExtension, ExtensionRoot } from "./types.js";

/** Folder names that are never extensions. */
function ignored(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

/**
 * The extension folders directly inside `root` (folders or symlinks to folders), by name.
 * A missing root has none.
 *
 * @example
 * await listExtensionFolders("/tmp/svc/Extensions") // ["/tmp/svc/Extensions/weather"]
 */
export async function listExtensionFolders(root: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const folders: string[] = [];
  for (const name of names.sort()) {
    if (ignored(name)) continue;
    const path = join(root, name);
    try {
      // stat follows symlinks: a dangling link or a plain file is not an extension.
      if ((await stat(path)).isDirectory()) folders.push(path);
    } catch {
      // A dangling symlink: nothing to load.
    }
  }
  return folders;
}

/**
 * Reads every root and resolves the winners. A bundled root with a `bundled.json` contributes
 * only the folders it lists (the rest are catalog packages); a broken `bundled.json` is listed
 * as broken and its root contributes nothing.
 *
 * @example
 * const catalog = await discover([{ path: "/app/Extensions", source: "bundled" }, { path: "/home/me/.local/share/Svc/Extensions", source: "user" }]);
 * catalog.active.map((ext) => ext.id);
 */
export async function discover(roots: readonly ExtensionRoot[]): Promise<Catalog> {
  const found: DiscoveredExtension[] = [];
  for (const root of roots) {
    let folders = await listExtensionFolders(root.path);
    if (root.source === "bundled") {
      const selection = await readBundledList(root.path);
      if ("error" in selection) {
        found.push({
          id: BUNDLED_LIST_FILE,
          folder: selection.file,
          source: "bundled",
          error: selection.error,
          tools: [],
          toolErrors: [],
        });
        continue;
      }
      const { run } = selection;
      if (run) folders = folders.filter((folder) => run.has(basename(folder)));
    }
    found.push(...(await Promise.all(folders.map((folder) => readExtensionFolder(folder, root.source)))));
  }
  return resolveCatalog(found);
}

/**
 * One winner per id: user before bundled, then the first found. Pure.
 *
 * @example
 * resolveCatalog([bundledWeather, userWeather]).active // [userWeather]; bundledWeather is in `overridden`
 */
export function resolveCatalog(found: readonly DiscoveredExtension[]): Catalog {
  const catalog: Catalog = { active: [], broken: [], overridden: [] };
  const winners = new Map<string, DiscoveredExtension>();
  const ordered = [...found.filter((ext) => ext.source === "user"), ...found.filter((ext) => ext.source === "bundled")];
  for (const ext of ordered) {
    if (ext.error) {
      catalog.broken.push(ext);
      continue;
    }
    const winner = winners.get(ext.id);
    if (!winner) {
      winners.set(ext.id, ext);
    } else if (winner.source === "user" && ext.source === "bundled") {
      catalog.overridden.push(ext);
    } else {
      catalog.broken.push({ ...ext, error: `the id ${ext.id} is already used by ${winner.folder}` });
    }
  }
  // Keep the order folders were found in, so the display is stable.
  catalog.active = found.filter((ext) => winners.get(ext.id) === ext);
  return catalog;
}
