/**
 * Launch-time preparation of the support folder: the folders SPEC.md lists, the `svc-hook`
 * launcher, and the folder made the person's alone (0700, its files 0600) at every start, so one
 * made by an older svc (0755 and 0644) is fixed too. `webhook.json` is written by the HTTP server
 * once it knows its port.
 */
import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { installHookLauncher } from "./hook-launcher.js";
import { supportPaths, supportRoot, type SupportPaths } from "./paths.js";

/** The support folder and every folder in it: the person's alone. */
export const SUPPORT_FOLDER_MODE = 0o700;
/** Its files: readable and writable by the person only (programs, like bin/svc-hook, 0700). */
export const SUPPORT_FILE_MODE = 0o600;

export interface PrepareOptions {
  /** Default: `supportRoot()` (from `SVC_HOME` or the platform default). */
  root?: string;
  /** Passed to the launcher; defaults suit a host running from `dist/`. */
  nodePath?: string;
  helperPath?: string;
}

/**
 * Takes every other account's access away: the folder and its folders 0700, its files 0600
 * (0700 for a file its owner may run). Inside `Extensions/` and `Data/` only the folders
 * themselves: once they are 0700 nobody else can reach what is in them, and a package's own
 * modes stay as they were. Symbolic links are left alone (chmod would follow them).
 */
async function makePrivate(root: string): Promise<void> {
  const tighten = async (path: string, deep: boolean): Promise<void> => {
    const info = await lstat(path).catch(() => undefined);
    if (!info || info.isSymbolicLink()) return;
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== SUPPORT_FOLDER_MODE) await chmod(path, SUPPORT_FOLDER_MODE);
      if (deep) for (const name of await readdir(path)) await tighten(join(path, name), false);
      return;
    }
    const wanted = info.mode & 0o100 ? 0o700 : SUPPORT_FILE_MODE;
    if (info.isFile() && (info.mode & 0o777) !== wanted) await chmod(path, wanted);
  };
  await tighten(root, true);
  const paths = supportPaths(root);
  for (const folder of [paths.bin, paths.hookState])
    for (const name of await readdir(folder).catch(() => [])) await tighten(join(folder, name), false);
}

/**
 * Creates `Extensions/`, `Data/`, `bin/` and writes `bin/svc-hook`; makes the whole folder the
 * person's alone. Returns the layout.
 *
 * @example
 * const support = await prepareSupportFolder();
 * const store = await BlipStore.open(support.blipsFile);
 */
export async function prepareSupportFolder(options: PrepareOptions = {}): Promise<SupportPaths> {
  const paths = supportPaths(options.root ?? supportRoot());
  await mkdir(paths.root, { recursive: true, mode: SUPPORT_FOLDER_MODE });
  await Promise.all(
    [paths.extensions, paths.data, paths.bin].map((dir) => mkdir(dir, { recursive: true, mode: SUPPORT_FOLDER_MODE })),
  );
  await installHookLauncher({ path: paths.hookLauncher, nodePath: options.nodePath, helperPath: options.helperPath });
  if (process.platform !== "win32") await makePrivate(paths.root);
  return paths;
}
