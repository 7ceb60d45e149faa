/**
 * Reads a `.svc` back: every entry's name and text. Used by tests, and handy for checking a
 * packed extension before sharing it.
 */
import { open, type Entry, type ZipFile } from "yauzl";

/**
 * @example
 * const entries = await zipEntries("my-ext-1.0.0.svc"); // Map { "package.json" => "{…}", … }
 */
export async function zipEntries(path: string): Promise<Map<string, string>> {
  const entries = await zipContents(path);
  return new Map([...entries].map(([name, data]) => [name, data.toString("utf8")]));
}

/**
 * Every entry's name and bytes, in archive order.
 *
 * @example
 * const contents = await zipContents("my-ext-1.0.0.svc"); // Map { "package.json" => <Buffer …>, … }
 */
export function zipContents(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    open(path, { lazyEntries: true }, (error, zip?: ZipFile) => {
      if (error || !zip) return reject(error ?? new Error(`cannot open ${path}`));
      const entries = new Map<string, Buffer>();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
