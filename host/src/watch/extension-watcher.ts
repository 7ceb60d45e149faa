/**
 * Hot reload's eyes: watches every extension root and says which extension folders changed
 * (`package.json` or anything under `dist/`, a folder or symlink added or removed), once per
 * burst of ~200 ms. Other files (an author's `src/`, a README) are not what the host runs, so
 * saving them reloads nothing: under `svckit dev` one save is one reload, with the new bundle.
 */
import type { Disposable } from "@svc/api";
import { watch, type FSWatcher } from "chokidar";
import { basename, join, relative, sep } from "node:path";
import { QuietBatch } from "./debounce.js";

/** Quiet time before a changed extension is reloaded. */
export const RELOAD_DEBOUNCE_MS = 200;

/** Folders whose churn never means the extension changed. */
const NOISE = new Set(["node_modules", ".git"]);

export interface ExtensionWatcherOptions {
  roots: readonly string[];
  /** The extension folders (`<root>/<name>`) that changed in the last burst. */
  onChange(folders: string[]): void;
  onError?(message: string): void;
  debounceMs?: number;
}

/** What the host reads from an extension folder: a change elsewhere in it changes nothing it runs. */
const RUN_FROM = new Set(["package.json", "dist"]);

/**
 * The extension folder a change reloads: the folder itself (added, removed) or one whose
 * `package.json` or `dist/` changed; undefined for anything else.
 *
 * @example
 * reloadedFolderOf(["/x"], "/x/ci/dist/index.js") // "/x/ci"
 * reloadedFolderOf(["/x"], "/x/ci/src/index.ts")  // undefined
 */
export function reloadedFolderOf(roots: readonly string[], path: string): string | undefined {
  const folder = extensionFolderOf(roots, path);
  if (!folder) return undefined;
  const inside = relative(folder, path);
  return inside === "" || RUN_FROM.has(inside.split(sep)[0]!) ? folder : undefined;
}

/** The extension folder (`<root>/<name>`) a changed path belongs to; undefined for the root itself. */
export function extensionFolderOf(roots: readonly string[], path: string): string | undefined {
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel === "" || rel.startsWith("..") || rel.startsWith(sep)) continue;
    return join(root, rel.split(sep)[0]!);
  }
  return undefined;
}

/**
 * @example
 * const watcher = await ExtensionWatcher.start({ roots: [bundled, user], onChange: (folders) => reload(folders) });
 * await watcher.dispose();
 */
export class ExtensionWatcher implements Disposable {
  private constructor(
    private readonly watcher: FSWatcher,
    private readonly batch: QuietBatch<string>,
  ) {}

  /** Resolves once the initial scan is done, so changes after it are seen. */
  static async start(options: ExtensionWatcherOptions): Promise<ExtensionWatcher> {
    const batch = new QuietBatch<string>(options.debounceMs ?? RELOAD_DEBOUNCE_MS, options.onChange);
    const watcher = watch([...options.roots], {
      ignoreInitial: true,
      followSymlinks: true,
      ignored: (path) => NOISE.has(basename(path)) || (basename(path).startsWith(".") && !options.roots.includes(path)),
    });
    watcher.on("all", (_event, path) => {
      const folder = reloadedFolderOf(options.roots, path);
      if (folder) batch.add(folder);
    });
    watcher.on("error", (error) => options.onError?.(`watching extensions: ${(error as Error).message}`));
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    return new ExtensionWatcher(watcher, batch);
  }

  async dispose(): Promise<void> {
    this.batch.cancel();
    await this.watcher.close();
  }
}
