/**
 * The `files.*` ops. Paths go through file-policy.ts first; the ops then touch only the real
 * path it returned. Writes are atomic (temp file in the same folder, then rename).
 */
import { open, mkdir, readdir, rename, rm, lstat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { CapabilityContext, OpHandler } from "./index.js";
import { decodeBase64, readArgs } from "./args.js";
import { checkRead, checkWrite } from "./file-policy.js";
import { describeBytes } from "./limits.js";
import type { ResolvedOptions } from "./options.js";

const ENCODINGS = ["utf8", "base64"] as const;

/**
 * Writes `data` to `path` atomically: readers see the old file or the new one, never half.
 * @example await writeAtomic("/data/storage.json", Buffer.from("{}"));
 */
export async function writeAtomic(path: string, data: Buffer | string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temp, data, { flag: "wx", mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Builds the file ops bound to the given options.
 * @example const ops = createFileOps(resolveOptions()); await ops["files.read"]({ path: "a.txt" }, cx);
 */
export function createFileOps(options: ResolvedOptions): Record<string, OpHandler> {
  const { limits } = options;

  async function read(raw: unknown, cx: CapabilityContext): Promise<string> {
    const args = readArgs("files.read", raw);
    const path = args.string("path");
    const encoding = args.oneOf("encoding", ENCODINGS, "utf8");
    const { real } = await checkRead(cx, "files.read", path);
    const handle = await open(real, "r").catch((error: NodeJS.ErrnoException) => {
      throw new Error(`files.read: ${error.code === "ENOENT" ? `"${path}" does not exist` : error.message}`);
    });
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new Error(`files.read: "${path}" is not a regular file`);
      // Read one byte past the cap so a file that grew after stat is still caught.
      const buffer = Buffer.alloc(Math.min(stat.size, limits.fileReadBytes) + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > limits.fileReadBytes) {
          throw new RangeError(`files.read: "${path}" is over the limit of ${describeBytes(limits.fileReadBytes)}`);
        }
        if (length === buffer.length) break;
      }
      return buffer.subarray(0, length).toString(encoding);
    } finally {
      await handle.close();
    }
  }

  async function write(raw: unknown, cx: CapabilityContext): Promise<null> {
    const args = readArgs("files.write", raw);
    const path = args.string("path");
    const text = args.string("data");
    const encoding = args.oneOf("encoding", ENCODINGS, "utf8");
    const data = encoding === "base64"
      ? decodeBase64("files.write: data", text, limits.fileWriteBytes)
      : Buffer.from(text, "utf8");
    if (data.length > limits.fileWriteBytes) {
      throw new RangeError(`files.write: data is over the limit of ${describeBytes(limits.fileWriteBytes)}`);
    }
    const { real, exists } = await checkWrite(cx, "files.write", path);
    if (exists && (await lstat(real)).isDirectory()) throw new Error(`files.write: "${path}" is a folder`);
    await mkdir(dirname(real), { recursive: true });
    await writeAtomic(real, data);
    return null;
  }

  async function list(raw: unknown, cx: CapabilityContext): Promise<string[]> {
    const path = readArgs("files.list", raw).optionalString("path") ?? ".";
    const { real, exists } = await checkRead(cx, "files.list", path);
    if (!exists) throw new Error(`files.list: "${path}" does not exist`);
    const entries = await readdir(real).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`files.list: ${error.code === "ENOTDIR" ? `"${path}" is not a folder` : error.message}`);
    });
    if (entries.length > limits.fileListEntries) {
      throw new RangeError(`files.list: "${path}" has ${entries.length} entries, over the limit of ${limits.fileListEntries}`);
    }
    return entries.sort();
  }

  async function exists(raw: unknown, cx: CapabilityContext): Promise<boolean> {
    const path = readArgs("files.exists", raw).string("path");
    return (await checkRead(cx, "files.exists", path)).exists;
  }

  /** Removes a file, a symlink (not its target) or a folder with its contents; nothing when missing. */
  async function remove(raw: unknown, cx: CapabilityContext): Promise<null> {
    const path = readArgs("files.remove", raw).string("path");
    const { real } = await checkWrite(cx, "files.remove", path, { followLast: false });
    await rm(real, { recursive: true, force: true });
    return null;
  }

  return { "files.read": read, "files.write": write, "files.list": list, "files.exists": exists, "files.remove": remove };
}
