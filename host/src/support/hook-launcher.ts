/**
 * `bin/svc-hook`: the small launcher agent and git hooks call. It runs the built helper
 * (`host/dist/hook/main.js`) with a given Node, and, true to the helper's promise never to fail
 * its caller, exits 0 with a note when either has gone missing (app moved or uninstalled).
 */
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "./atomic-file.js";

export interface HookLauncherOptions {
  /** Where to write the launcher: `bin/svc-hook` (`bin/svc-hook.cmd` on Windows). */
  path: string;
  /** The Node to run the helper with. Default: the Node running this code. */
  nodePath?: string;
  /** The built helper. Default: `dist/hook/main.js` beside this module's own `dist/support/`. */
  helperPath?: string;
  platform?: NodeJS.Platform;
}

/** The built helper next to this module (right when running from `dist/`). */
export function defaultHelperPath(): string {
  return fileURLToPath(new URL("../hook/main.js", import.meta.url));
}

/** A string as one single-quoted word for `/bin/sh`. */
function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function shellLauncher(nodePath: string, helperPath: string): string {
  const node = shQuote(nodePath);
  const helper = shQuote(helperPath);
  return [
    "#!/bin/sh",
    "# svc-hook launcher, written by svc-host at every launch. Never fails its caller.",
    `if [ -x ${node} ] && [ -f ${helper} ]; then`,
    `  exec ${node} ${helper} "$@"`,
    "fi",
    `echo "svc-hook: svc is not installed where this launcher expects it (${helperPath.replaceAll('"', "")}); start svc once to repair it" >&2`,
    "exit 0",
    "",
  ].join("\n");
}

function cmdLauncher(nodePath: string, helperPath: string): string {
  return [
    "@echo off",
    "rem svc-hook launcher, written by svc-host at every launch. Never fails its caller.",
    `if exist "${helperPath}" if exist "${nodePath}" ( "${nodePath}" "${helperPath}" %* & exit /b 0 )`,
    "echo svc-hook: svc is not installed where this launcher expects it; start svc once to repair it 1>&2",
    "exit /b 0",
    "",
  ].join("\r\n");
}

/**
 * Writes the launcher atomically, executable by its owner only (0700). Returns its path.
 *
 * @example
 * await installHookLauncher({ path: supportPaths(root).hookLauncher });
 */
export async function installHookLauncher(options: HookLauncherOptions): Promise<string> {
  const nodePath = options.nodePath ?? process.execPath;
  const helperPath = options.helperPath ?? defaultHelperPath();
  const windows = (options.platform ?? process.platform) === "win32";
  const text = windows ? cmdLauncher(nodePath, helperPath) : shellLauncher(nodePath, helperPath);
  // Executable by the person only: the support folder is theirs alone.
  await writeFileAtomic(options.path, text, { mode: 0o700 });
  return options.path;
}
