/**
 * Builds `.svc` files for install tests: honest ones with yazl (as `svckit pack` would), and
 * any other shape with `zipBytes`.
 */
import { createWriteStream } from "node:fs";
import yazl from "yazl";

/** A valid package.json for an extension, with `svc` fields overridden. */
export function packageJson(svc: Record<string, unknown> = {}, top: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name: "deploys",
    version: "1.2.0",
    main: "dist/index.js",
    ...top,
    svc: { id: "com.example.deploys", title: "Deploys", description: "Shows your deploys.", author: "Example", ...svc },
  });
}

/**
 * Writes a zip of `files` (name → content) with yazl.
 *
 * @example
 * await writeSvc("/tmp/x.svc", { "package.json": packageJson(), "dist/index.js": "module.exports = {}" });
 */
export function writeSvc(path: string, files: Record<string, string | Buffer>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(path)).on("close", resolve).on("error", reject);
  });
}
