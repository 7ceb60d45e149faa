/**
 * Where the app keeps its files (DESIGN.md "Entry points", SPEC.md "File layout"): `SVC_HOME`,
 * else the platform's usual place for application data, and the fixed layout inside it.
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
export function supportRoot(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env.SVC_HOME) return env.SVC_HOME;
  if (platform === "win32") return win32.join(env.APPDATA || win32.join(home, "AppData", "Roaming"), "Svc");
  if (platform === "darwin") return posix.join(home, "Library", "Application Support", "Svc");
  // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME && posix.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  return posix.join(xdg ?? posix.join(home, ".local", "share"), "Svc");
}

/** Every path the host uses inside the support folder. */
export interface SupportPaths {
  root: string;
  /** `Extensions/<extension-id>/`: installed or dev-linked extensions. */
  extensions: string;
  /** `Data/<extension-id>/`: per-extension storage, owned by the runtime. */
  data: string;
  /** `webhook.json`: `{port, token}`, mode 0600, rewritten at every launch. */
  webhookFile: string;
  /** `bin/`: holds the `svc-hook` launcher. */
  bin: string;
  /** `bin/svc-hook` (`bin/svc-hook.cmd` on Windows). */
  hookLauncher: string;
  /** `blips.json`: the blip store (ours: SPEC.md leaves where the host keeps blips open). */
  blipsFile: string;
  /** `hook/`: what `svc-hook start` remembers (title, start time) for later `step` calls. */
  hookState: string;
}

/**
 * The layout inside a support folder.
 *
 * @example
 * supportPaths("/tmp/svc").webhookFile // "/tmp/svc/webhook.json"
 */
export function supportPaths(root: string, platform: NodeJS.Platform = process.platform): SupportPaths {
  const bin = join(root, "bin");
  return {
    root,
    extensions: join(root, "Extensions"),
    data: join(root, "Data"),
    webhookFile: join(root, "webhook.json"),
    bin,
    hookLauncher: join(bin, platform === "win32" ? "svc-hook.cmd" : "svc-hook"),
    blipsFile: join(root, "blips.json"),
    hookState: join(root, "hook"),
  };
}
