/**
 * Whole-file writes that a reader (or a crash) never sees half done: the bytes go to a temp
 * file beside the target, are flushed to disk, and the temp file is renamed over the target.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /**
   * File mode of the result. Applied to the temp file before the rename. Default `0o600`: the
   * support folder's files are the person's alone (host/README.md "The app's keys").
   */
  mode?: number;
}

/**
 * Writes `data` to `path` atomically (temp file + fsync + rename), creating the folder.
 *
 * @example
 * await writeFileAtomic("/tmp/svc/webhook.json", '{"port":47811,"token":"…"}', { mode: 0o600 });
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx", mode);
    try {
      await handle.writeFile(data);
      // The umask may have taken bits away; the caller asked for exactly this mode.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
