/**
 * Where the app keeps its files (DESIGN.md "Entry points"): `SVC_HOME`, else the platform's
 * usual place for application data.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The support folder for the given environment and platform.
 *
 * @example
 * supportFolder({ SVC_HOME: "/tmp/svc" })            // "/tmp/svc"
 * supportFolder({}, "darwin", "/Users/ann")         // "/Users/ann/Library/Application Support/Svc"
 * supportFolder({ XDG_DATA_HOME: "/d" }, "linux")  // "/d/Svc"
 */
export function supportFolder(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.SVC_HOME) return env.SVC_HOME;
  if (platform === "darwin") return join(home, "Library", "Application Support", "Svc");
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "Svc");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "Svc");
}
