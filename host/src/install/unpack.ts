/**
 * Unpacks a `.svc` (a zip) into a fresh folder, safely: every name checked, no links, at most
 * 2,000 entries, 20 MB per entry and 50 MB in all once unpacked, and no entry that inflates more
 * than 100 times its packed size. Sizes are counted while inflating, never taken from headers.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import { checkEntryKind, checkEntryName, decodeEntryName } from "./entry-names.js";
import { InstallError, PACKAGE_LIMITS } from "../review/index.js";

/** What was unpacked: relative paths of files (not folders), in archive order. */
export interface Unpacked {
  files: string[];
  totalBytes: number;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolveZip, reject) => {
    // decodeStrings: false gives names as the archive spells them (checked by us);
    // validateEntrySizes stays on as a second check behind our own counting.
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip)
          reject(new InstallError(`not a readable .svc package (a zip file): ${error?.message ?? "unknown error"}`));
        else resolveZip(zip);
      },
    );
  });
}

/** Counts bytes flowing through and stops the stream the moment a cap is passed. */
class ByteGuard extends Transform {
  bytes = 0;
  constructor(
    private readonly name: string,
    private readonly packedBytes: number,
    private readonly totalSoFar: () => number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    const shown = JSON.stringify(this.name);
    if (this.bytes > PACKAGE_LIMITS.entryBytes)
      return done(new InstallError(`refused: entry ${shown} is larger than 20 MB once unpacked`));
    if (this.totalSoFar() + this.bytes > PACKAGE_LIMITS.totalBytes)
      return done(new InstallError("refused: the package is larger than 50 MB once unpacked"));
    if (this.bytes > PACKAGE_LIMITS.ratioFloorBytes && this.bytes > this.packedBytes * PACKAGE_LIMITS.ratio) {
      return done(
        new InstallError(
          `refused: entry ${shown} unpacks to more than ${PACKAGE_LIMITS.ratio} times its packed size (a zip bomb)`,
        ),
      );
    }
    done(null, chunk);
  }
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolveStream, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream)
        reject(new InstallError(`refused: an entry cannot be read: ${error?.message ?? "unknown error"}`));
      else resolveStream(stream);
    });
  });
}

/**
 * @example
 * const { files } = await unpackPackage("/tmp/deploys-1.0.0.svc", "/s/.installing/abc");
 */
export async function unpackPackage(file: string, into: string): Promise<Unpacked> {
  const zip = await openZip(file);
  const root = resolve(into);
  await mkdir(root, { recursive: true });
  const files: string[] = [];
  const seen = new Set<string>();
  const made = new Set<string>([root]);
  const makeFolder = async (folder: string) => {
    if (made.has(folder)) return;
    await mkdir(folder, { recursive: true });
    made.add(folder);
  };
  let totalBytes = 0;
  let count = 0;
  try {
    if (zip.entryCount > PACKAGE_LIMITS.entries)
      throw new InstallError(
        `refused: the package has ${zip.entryCount} entries; the most is ${PACKAGE_LIMITS.entries}`,
      );
    for await (const entry of entries(zip)) {
      if (++count > PACKAGE_LIMITS.entries)
        throw new InstallError(`refused: the package has more than ${PACKAGE_LIMITS.entries} entries`);
      const name = decodeEntryName(entry.fileName as unknown as Buffer, entry.generalPurposeBitFlag);
      checkEntryName(name);
      checkEntryKind(name, entry.externalFileAttributes);
      // Two entries may not land on one file (also where the disk ignores case).
      const key = name.replace(/\/$/, "").toLowerCase();
      if (seen.has(key)) throw new InstallError(`refused: entry ${JSON.stringify(name)} appears twice`);
      seen.add(key);
      const target = resolve(root, name);
      if (!target.startsWith(root + sep))
        throw new InstallError(
          `refused: entry ${JSON.stringify(name)} would be written outside the extension's folder`,
        );
      if (name.endsWith("/")) {
        await makeFolder(target);
        continue;
      }
      await makeFolder(dirname(target));
      const guard = new ByteGuard(name, entry.compressedSize, () => totalBytes);
      try {
        await pipeline(await readStream(zip, entry), guard, createWriteStream(target, { flags: "wx", mode: 0o644 }));
      } catch (error) {
        if (error instanceof InstallError) throw error;
        throw new InstallError(`refused: entry ${JSON.stringify(name)} is damaged: ${(error as Error).message}`);
      }
      totalBytes += guard.bytes;
      files.push(name);
    }
  } finally {
    if (zip.isOpen) zip.close();
  }
  return { files, totalBytes };
}

/** The entries one at a time (lazyEntries), as an async iterator that surfaces zip errors. */
async function* entries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const next = await new Promise<yauzl.Entry | null>((resolveEntry, reject) => {
      const onEntry = (entry: yauzl.Entry) => (cleanup(), resolveEntry(entry));
      const onEnd = () => (cleanup(), resolveEntry(null));
      const onError = (error: Error) => (
        cleanup(),
        reject(new InstallError(`not a readable .svc package (a zip file): ${error.message}`))
      );
      const cleanup = () => {
        zip.off("entry", onEntry);
        zip.off("end", onEnd);
        zip.off("error", onError);
      };
      zip.on("entry", onEntry);
      zip.on("end", onEnd);
      zip.on("error", onError);
      zip.readEntry();
    });
    if (!next) return;
    yield next;
  }
}

/** Joins a relative entry path to the folder (for readers of unpacked files). */
export function unpackedPath(into: string, name: string): string {
  return join(into, ...name.split("/"));
}
