/**
 * A bundled root may say which of its folders run by default (`bundled.json`, schema in
 * @svc/api); every other extension folder there is a catalog package, installed only through
 * Settings → Add extensions or `svc-host install <name>`. A root without the file runs every
 * folder (a test's or a person's own bundled folder).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { BUNDLED_LIST_FILE, parseBundledList } from "@svc/api";

/** The folder names that run, `undefined` for "all of them", or the problem with the file. */
export type BundledSelection = { run?: ReadonlySet<string> } | { error: string; file: string };

/**
 * @example
 * await readBundledList("/repo/extensions") // { run: Set { "devtools", "focus", "system" } }
 */
export async function readBundledList(root: string): Promise<BundledSelection> {
  const file = join(root, BUNDLED_LIST_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    return { file, error: `${file} cannot be read: ${(error as Error).message}` };
  }
  const parsed = parseBundledList(text, file);
  // A broken list runs nothing from that root rather than everything: the catalog stays a catalog.
  return parsed.ok ? { run: new Set(parsed.value.onByDefault) } : { file, error: parsed.error };
}
