/**
 * `triggers.watch`: changes under the listed paths reach the extension as
 * `{type: "file", paths}`, gathered for ~100 ms. Each path must also be inside
 * `permissions.files` (`~` expanded on both sides); one that is not is reported and not watched.
 */
import type { Disposable } from "@svc/api";
import { watch, type FSWatcher } from "chokidar";
import { isInside, refusedPath, resolveListedPath } from "@svc/runtime";
import { homedir } from "node:os";
import { QuietBatch } from "./debounce.js";

/** Quiet time before gathered file changes are delivered. */
export const FILE_EVENT_DEBOUNCE_MS = 100;

/** `~` and `~/…` made absolute, as the file fence does. */
export { expandHome } from "@svc/runtime";

/** svc's support folder and the extension's own data folder in it, for `checkWatchPaths`. */
export interface WatchFence {
  supportDir: string;
  dataDir: string;
}

/**
 * Splits `triggers.watch` into paths allowed by `permissions.files` and errors for a person. Both
 * lists are resolved as the file fence resolves them (`resolveListedPath`: `~`, `..`, symlinks),
 * so a watched path is judged where it really is; one inside svc's own folder (but for the
 * extension's data folder) is never watched, whatever is listed.
 *
 * @example
 * checkWatchPaths(["~/notes"], ["~/notes"], "/home/ann"); // { allowed: ["/home/ann/notes"], errors: [] }
 */
export function checkWatchPaths(
  watchList: readonly string[],
  files: readonly string[],
  home: string = homedir(),
  fence?: WatchFence,
): { allowed: string[]; errors: string[] } {
  const granted = files.flatMap((entry) => resolveListedPath(entry, home).path ?? []);
  const places = fence && { home, supportDir: realOf(fence.supportDir), dataDir: realOf(fence.dataDir) };
  const allowed: string[] = [];
  const errors: string[] = [];
  for (const entry of watchList) {
    const path = resolveListedPath(entry, home).path;
    if (path !== undefined && places && refusedPath(path, places)) {
      errors.push(
        `triggers.watch "${entry}" is not watched: it is inside svc's own folder, which no extension may read`,
      );
    } else if (path !== undefined && granted.some((folder) => isInside(path, folder))) allowed.push(path);
    else
      errors.push(
        `triggers.watch "${entry}" is not watched: it is not inside permissions.files; add "${entry}" to svc.permissions.files`,
      );
  }
  return { allowed, errors };
}

function realOf(path: string): string {
  return resolveListedPath(path).path ?? path;
}

/**
 * One watcher per extension with watched paths.
 *
 * @example
 * const triggers = new FileTriggers();
 * await triggers.set("com.example.notes", ["/home/ann/notes"], (paths) => sendFileEvent(paths));
 * triggers.remove("com.example.notes");
 */
export class FileTriggers implements Disposable {
  private readonly watchers = new Map<string, { watcher: FSWatcher; batch: QuietBatch<string> }>();

  constructor(private readonly onError: (id: string, message: string) => void = () => {}) {}

  /**
   * Watches `paths` for `id` (replacing what it watched before); resolves when watching. With
   * `fence`, nothing inside svc's own folder is watched or reported, though a watched folder
   * holds it (`~`), but for the extension's own data folder.
   */
  async set(
    id: string,
    paths: readonly string[],
    deliver: (paths: string[]) => void,
    fence?: WatchFence,
  ): Promise<void> {
    await this.remove(id);
    if (paths.length === 0) return;
    const batch = new QuietBatch<string>(FILE_EVENT_DEBOUNCE_MS, (changed) => deliver(changed.sort()));
    // Both spellings: chokidar names paths as it walked them, a symlinked support folder included.
    const fences = fence ? [fence, { supportDir: realOf(fence.supportDir), dataDir: realOf(fence.dataDir) }] : [];
    // The folders on the way to the data folder are walked (ignoring one prunes all below it).
    const ignored = (path: string) => fences.some((f) => refusedPath(path, f) && !isInside(f.dataDir, path));
    const watcher = watch([...paths], { ignoreInitial: true, followSymlinks: true, ignored });
    this.watchers.set(id, { watcher, batch });
    watcher.on("all", (_event, path) => batch.add(path));
    watcher.on("error", (error) => this.onError(id, `watching files: ${(error as Error).message}`));
    await new Promise<void>((resolveReady) => watcher.once("ready", () => resolveReady()));
  }

  async remove(id: string): Promise<void> {
    const entry = this.watchers.get(id);
    if (!entry) return;
    this.watchers.delete(id);
    entry.batch.cancel();
    await entry.watcher.close();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.watchers.keys()].map((id) => this.remove(id)));
  }
}
