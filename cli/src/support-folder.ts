/**
 * Where the app keeps its files: the same folder svc-host uses (`@svc/runtime`'s supportRoot).
 */
import { supportRoot } from "@svc/runtime";

/**
 * The support folder for the given environment and platform.
 *
 * @example
 * supportFolder({ SVC_HOME: "/tmp/svc" })            // "/tmp/svc"
 * supportFolder({}, "darwin", "/Users/ann")         // "/Users/ann/Library/Application Support/Svc"
 */
export function supportFolder(
  env: Readonly<Record<string, string | undefined>>,
  platform?: NodeJS.Platform,
  home?: string,
): string {
  return supportRoot(env, platform, home);
}
