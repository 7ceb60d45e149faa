/**
 * `triggers.watch`: changes under the listed paths reach the extension as
 * `{type: "file", paths}`, gathered for ~100 ms. Each path must also be inside
 * `permissions.files` (`~` expanded on both sides); one that is not is reported and not watched.
 */
import { watch, type FSWatcher } from "chokidar";
import { homedir } from "node:os";
import { join, resolve, sep } from "node:path";
import { QuietBatch } from "./debounce.js";

/** Quiet time before gathered file changes are delivered. */
export const FILE_EVENT_DEBOUNCE_MS = 100;

/**
 * `~` and `~/…` made absolute.
 *
 * @example
 * expandHome("~/notes", "/home/ann"); // "/home/ann/notes"
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * Splits `triggers.watch` into paths allowed by `permissions.files` (absolute, expanded) and
 * errors for a person.
 *
 * @example
 * checkWatchPaths(["~/notes"], ["~/notes"], "/home/ann"); // { allowed: ["/home/ann/notes"], errors: [] }
 */
export function checkWatchPaths(
  watchList: readonly string[],
  files: readonly string[],
  home: string = homedir(),
): { allowed: string[]; errors: string[] } {
  const granted = files.map((entry) => resolve(expandHome(entry, home)));
  const allowed: string[] = [];
  const errors: string[] = [];
  for (const entry of watchList) {
    const path = resolve(expandHome(entry, home));
    if (granted.some((folder) => inside(path, folder))) allowed.push(path);
    else
      errors.push(
        `triggers.watch "${entry}" is not watched: it is not inside permissions.files; add "${entry}" to svc.permissions.files`,
      );
  }
  return { allowed, errors };
}

/**
 * One watcher per extension with watched paths.
 *
 * @example
 * const triggers = new FileTriggers();
 * await triggers.set("com.example.notes", ["/home/ann/notes"], (paths) => sendFileEvent(paths));
 * triggers.remove("com.example.notes");
 */
export class FileTriggers {
  private readonly watchers = new Map<string, { watcher: FSWatcher; batch: QuietBatch<string> }>();

  constructor(private readonly onError: (id: string, message: string) => void = () => {}) {}

  /** Watches `paths` for `id` (replacing what it watched before); resolves when watching. */
  async set(id: string, paths: readonly string[], deliver: (paths: string[]) => void): Promise<void> {
    await this.remove(id);
    if (paths.length === 0) return;
    const batch = new QuietBatch<string>(FILE_EVENT_DEBOUNCE_MS, (changed) => deliver(changed.sort()));
    const watcher = watch([...paths], { ignoreInitial: true, followSymlinks: true });
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

  async close(): Promise<void> {
    await Promise.all([...this.watchers.keys()].map((id) => this.remove(id)));
  }
}
