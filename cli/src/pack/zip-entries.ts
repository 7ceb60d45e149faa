/**
 * Reads a `.svc` back: every entry's name and text. Used by tests, and handy for checking a
 * packed extension before sharing it.
 */
import { open, type Entry, type ZipFile } from "yauzl";

/**
 * @example
 * const entries = await zipEntries("my-ext-1.0.0.svc"); // Map { "package.json" => "{…}", … }
 */
export function zipEntries(path: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    open(path, { lazyEntries: true }, (error, zip?: ZipFile) => {
      if (error || !zip) return reject(error ?? new Error(`cannot open ${path}`));
      const entries = new Map<string, string>();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
