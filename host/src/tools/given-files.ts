/**
 * Files a caller hands a tool. A path given to a tool is a read grant: the extension may read
 * that file during the run (sandbox/CAPABILITIES.md "Files") and hand it back. So each one must
 * name an existing regular file, and what goes on is its real path (symlinks resolved), never
 * the string the caller sent: the grant covers the file that was checked.
 *
 * Folders are refused here: a given folder would grant everything inside it.
 */
import { realpath, stat } from "node:fs/promises";
import { ToolError } from "./tool-error.js";

/**
 * @example
 * await checkGivenFiles("values.file", ["/Users/me/notes.txt"]) // ["/Users/me/notes.txt"] (real paths)
 */
export async function checkGivenFiles(where: string, paths: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const path of paths) {
    let resolved: string;
    try {
      resolved = await realpath(path);
    } catch {
      throw new ToolError("invalid", `"${where}": ${path} does not exist`);
    }
    const info = await stat(resolved);
    if (!info.isFile()) throw new ToolError("invalid", `"${where}": ${path} is not a file (folders and devices cannot be given to a tool)`);
    real.push(resolved);
  }
  return real;
}
