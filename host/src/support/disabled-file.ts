/**
 * `disabled.json`: the ids of extensions the person turned off (`svc-host disable`, the page's
 * switch). A JSON array of ids, written atomically. The host reads it on every rescan, so a
 * change made while svc was not running is kept when it starts.
 */
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-file.js";

/**
 * The disabled ids; none when the file is missing. An unreadable file counts as none and is
 * reported, so a hand edit gone wrong turns nothing off silently.
 *
 * @example
 * await readDisabled(support.disabledFile); // Set { "com.example.ci" }
 */
export async function readDisabled(path: string, onProblem?: (message: string) => void): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Set();
    throw error;
  }
  try {
    const ids: unknown = JSON.parse(text);
    if (Array.isArray(ids) && ids.every((id) => typeof id === "string")) return new Set(ids as string[]);
  } catch {
    // reported below
  }
  onProblem?.(`${path} is not a JSON array of extension ids; every extension is on until one is turned off again`);
  return new Set();
}

/**
 * Turns one extension on or off in the file. Returns false when it already was.
 *
 * @example
 * await setDisabled(support.disabledFile, "com.example.ci", true);
 */
export async function setDisabled(path: string, id: string, disabled: boolean): Promise<boolean> {
  const ids = await readDisabled(path);
  if (ids.has(id) === disabled) return false;
  if (disabled) ids.add(id);
  else ids.delete(id);
  await writeFileAtomic(path, `${JSON.stringify([...ids].sort(), null, 2)}\n`, { mode: 0o600 });
  return true;
}
