/**
 * Where the app keeps its files (DESIGN.md "Entry points"): `SVC_HOME`, else the platform's
 * usual place for application data. One definition, so svc-host and svckit (`dev`, `send`)
 * can never disagree about where `Extensions/` and `webhook.json` are.
 */
import { homedir } from "node:os";
import { join, posix, win32 } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The support folder for an environment and platform.
 *
 * @example
 * supportRoot({ SVC_HOME: "/tmp/svc" })                 // "/tmp/svc"
 * supportRoot({}, "darwin", "/Users/ann")               // "/Users/ann/Library/Application Support/Svc"
 * supportRoot({ XDG_DATA_HOME: "/d" }, "linux", "/h")   // "/d/Svc"
 * supportRoot({}, "linux", "/home/ann")                 // "/home/ann/.local/share/Svc"
 * supportRoot({ APPDATA: "C:\\Users\\ann\\AppData\\Roaming" }, "win32") // "C:\\Users\\ann\\AppData\\Roaming\\Svc"
 */
export function supportRoot(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.SVC_HOME) return env.SVC_HOME;
  if (platform === "win32") return win32.join(env.APPDATA || win32.join(home, "AppData", "Roaming"), "Svc");
  if (platform === "darwin") return posix.join(home, "Library", "Application Support", "Svc");
  // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME && posix.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  return posix.join(xdg ?? posix.join(home, ".local", "share"), "Svc");
}

/**
 * Where compiled bundles are kept (the sandbox pool's code cache), given the data root the
 * host passes to `initialize` (`<support>/Data`): inside it, under a name no extension id can
 * take (ids start with a letter or digit), so no guest writes there.
 *
 * @example compiledCodeDir("/home/ann/.local/share/Svc/Data") // ".../Data/.compiled-code"
 */
export function compiledCodeDir(dataRoot: string): string {
  return join(dataRoot, ".compiled-code");
}

/**
 * Where Node keeps its compiled form of svc-runtime's own modules (zod, the SDK, the runtime,
 * the sandbox thread's code) between launches: Node's module compile cache, written by Node itself
 * (22.1 and later; older Node ignores it), beside `.compiled-code` under a name no extension id can take.
 *
 * @example nodeCompileCacheDir("/home/ann/.local/share/Svc/Data") // ".../Data/.node-compile-cache"
 */
export function nodeCompileCacheDir(dataRoot: string): string {
  return join(dataRoot, ".node-compile-cache");
}

/** An extension's bundle, relative to its folder: also the file name guests see in stack traces. */
export const BUNDLE_FILE = "dist/index.js";
