/**
 * Launch-time preparation of the support folder: the folders SPEC.md lists, and the
 * `svc-hook` launcher. `webhook.json` is written by the HTTP server once it knows its port.
 */
import { mkdir } from "node:fs/promises";
import { installHookLauncher } from "./hook-launcher.js";
import { supportPaths, supportRoot, type SupportPaths } from "./paths.js";

export interface PrepareOptions {
  /** Default: `supportRoot()` (from `SVC_HOME` or the platform default). */
  root?: string;
  /** Passed to the launcher; defaults suit a host running from `dist/`. */
  nodePath?: string;
  helperPath?: string;
}

/**
 * Creates `Extensions/`, `Data/`, `bin/` and writes `bin/svc-hook`. Returns the layout.
 *
 * @example
 * const support = await prepareSupportFolder();
 * const store = await BlipStore.open(support.blipsFile);
 */
export async function prepareSupportFolder(options: PrepareOptions = {}): Promise<SupportPaths> {
  const paths = supportPaths(options.root ?? supportRoot());
  await Promise.all([paths.extensions, paths.data, paths.bin].map((dir) => mkdir(dir, { recursive: true })));
  await installHookLauncher({ path: paths.hookLauncher, nodePath: options.nodePath, helperPath: options.helperPath });
  return paths;
}
