/**
 * The values a person (or the extension, through `setPreference`) chose, one JSON file per
 * extension: `<support>/Preferences/<extension-id>.json`, an object of name → value, written
 * atomically. Passwords are never in it: they live in the secret store.
 *
 * The folder is apart from `Data/<id>/`, which the extension itself may write: an extension
 * changes its options only through `host.preferences.set`, where they are checked.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../support/index.js";

/** The folder of preference files inside a support folder. @example preferencesFolder("/s") // "/s/Preferences" */
export function preferencesFolder(supportRoot: string): string {
  return join(supportRoot, "Preferences");
}

/** The file of one extension. */
export function preferenceFile(folder: string, extensionId: string): string {
  return join(folder, `${extensionId}.json`);
}

/**
 * The stored values; `{}` when there is no file. A file that is not a JSON object is reported
 * through `onProblem` and read as `{}` (the extension falls back to its defaults).
 *
 * @example
 * await readPreferenceFile("/s/Preferences/com.example.ci.json"); // { branch: "main" }
 */
export async function readPreferenceFile(
  path: string,
  onProblem?: (message: string) => void,
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: reported below
  }
  onProblem?.(`${path} is not a JSON object of preference values; using the defaults until an option is set again`);
  return {};
}

/** Writes the values atomically (mode 0600: they are the person's settings). */
export async function writePreferenceFile(path: string, values: Record<string, unknown>): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
}
