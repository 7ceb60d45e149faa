/**
 * The `files.*` ops. Paths go through file-policy.ts first; the ops then touch only the real
 * path it returned, and check again what they opened: a read opens without blocking and without
 * following a last symlink (`O_NONBLOCK | O_NOFOLLOW`), takes only a regular file (`fstat` of
 * the descriptor: a FIFO or a device never parks Node's file-I/O threads), and checks the
 * descriptor's own path (`/proc/self/fd`), so a folder swapped for a symlink between the check
 * and the open is caught. Writes are atomic (temp file in the same folder, then rename) and
 * count against the data folder's quota (quota.ts).
 */
import { open, mkdir, readdir, readlink, rename, rm, lstat, type FileHandle } from "node:fs/promises";
import { constants } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { CapabilityContext, OpHandler } from "./context.js";
import { decodeBase64, readArgs } from "./args.js";
import { checkRead, checkWrite, isInside, mayRead } from "./file-policy.js";
import { describeBytes } from "./limits.js";
import type { ResolvedOptions } from "./options.js";
import { createQuota } from "./quota.js";
import { deny } from "./denial.js";

const ENCODINGS = ["utf8", "base64"] as const;

/** The path the kernel says an open descriptor has; undefined where there is no /proc. */
async function pathOfDescriptor(handle: FileHandle): Promise<string | undefined> {
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
}

/**
 * Writes `data` to `path` atomically: readers see the old file or the new one, never half.
 * With `inside`, the temporary file's own path must lie inside that folder (checked on the
 * descriptor), so a folder swapped for a symlink after the check is caught before the rename.
 * @example await writeAtomic("/data/storage.json", Buffer.from("{}"));
 */
export async function writeAtomic(path: string, data: Buffer | string, inside?: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      const opened = inside === undefined ? undefined : await pathOfDescriptor(handle);
      if (opened !== undefined && inside !== undefined && !isInside(opened, inside))
        throw new Error("the folder changed while writing");
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** What a guest sees for a failed read: the path it gave and the error code, never the real path. */
function readFailure(op: string, path: string, error: NodeJS.ErrnoException): Error {
  if (error.code === "ENOENT") return new Error(`${op}: "${path}" does not exist`);
  if (error.code === "ELOOP") return new Error(`${op}: "${path}" is a symlink that changed after it was checked`);
  return new Error(`${op}: "${path}" could not be read (${error.code ?? "error"})`);
}

/**
 * Builds the file ops bound to the given options.
 * @example const ops = createFileOps(resolveOptions()); await ops["files.read"]({ path: "a.txt" }, cx);
 */
export function createFileOps(options: ResolvedOptions): Record<string, OpHandler> {
  const { limits } = options;
  const quota = createQuota(limits);

  async function read(raw: unknown, cx: CapabilityContext): Promise<string> {
    const args = readArgs("files.read", raw);
    const path = args.string("path");
    const encoding = args.oneOf("encoding", ENCODINGS, "utf8");
    const { real } = await checkRead(cx, "files.read", path);
    const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
    const handle = await open(real, flags).catch((error: NodeJS.ErrnoException) => {
      throw readFailure("files.read", path, error);
    });
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new Error(`files.read: "${path}" is not a regular file`);
      const opened = await pathOfDescriptor(handle);
      if (opened !== undefined && !(await mayRead(cx, opened))) {
        throw deny(cx, {
          kind: "file",
          target: path,
          reason: `"${path}" changed while it was being opened and now leads outside the allowed folders`,
        });
      }
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
    const data =
      encoding === "base64"
        ? decodeBase64("files.write: data", text, limits.fileWriteBytes)
        : Buffer.from(text, "utf8");
    if (data.length > limits.fileWriteBytes) {
      throw new RangeError(`files.write: data is over the limit of ${describeBytes(limits.fileWriteBytes)}`);
    }
    const { real, exists } = await checkWrite(cx, "files.write", path);
    const before = exists ? await lstat(real) : undefined;
    if (before?.isDirectory()) throw new Error(`files.write: "${path}" is a folder`);
    const grant = await quota.reserve(cx, "files.write", real, data.length, before?.size ?? 0);
    try {
      await mkdir(dirname(real), { recursive: true });
      await writeAtomic(real, data, cx.dataDir);
    } catch (error) {
      grant.cancel();
      throw error;
    }
    return null;
  }

  async function list(raw: unknown, cx: CapabilityContext): Promise<string[]> {
    const path = readArgs("files.list", raw).optionalString("path") ?? ".";
    const { real, exists } = await checkRead(cx, "files.list", path);
    if (!exists) throw new Error(`files.list: "${path}" does not exist`);
    const entries = await readdir(real).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `files.list: ${error.code === "ENOTDIR" ? `"${path}" is not a folder` : `"${path}" could not be listed (${error.code ?? "error"})`}`,
      );
    });
    if (entries.length > limits.fileListEntries) {
      throw new RangeError(
        `files.list: "${path}" has ${entries.length} entries, over the limit of ${limits.fileListEntries}`,
      );
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
    quota.forget(cx);
    return null;
  }

  return {
    "files.read": read,
    "files.write": write,
    "files.list": list,
    "files.exists": exists,
    "files.remove": remove,
  };
}
