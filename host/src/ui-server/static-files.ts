/**
 * The page's files: read once from `ui/dist` at start, served from memory. Only the files found
 * there, by exact name: no path is ever joined from a request.
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export interface StaticFile {
  type: string;
  body: Buffer;
}

/** `/` → index.html, `/<name>` → the file of that name in `folder` (top level only). */
export function readStaticFiles(folder: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return files;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(folder, name));
    files.set(`/${name}`, { type, body });
    if (name === "index.html") files.set("/", { type, body });
  }
  return files;
}
