/**
 * Small file helpers every command shares: atomic writes, so a crash or a Ctrl-C never leaves
 * half a file where the app or the host's watcher would read it.
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

let counter = 0;

/**
 * Writes `content` to `path` through a temporary file in the same folder and a rename.
 *
 * @example
 * await writeFileAtomic("/ext/dist/tools.json", "[]\n");
 * await writeFileAtomic("/keys/author.key", secretText, 0o600); // readable by its owner only
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  counter += 1;
  const temp = `${path}.${process.pid}.${counter}.tmp`;
  try {
    await writeFile(temp, content, mode === undefined ? {} : { mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
