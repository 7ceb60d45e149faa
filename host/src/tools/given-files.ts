/**
 * Files the person gives. A path given to a tool is a read grant: the extension may read that
 * file during the run (sandbox/CAPABILITIES.md "Files") and hand it back. So each one must name
 * an existing regular file, and what goes on is its real path (symlinks resolved), never the
 * string the caller sent: the grant covers the file that was checked.
 *
 * Folders are refused here: a given folder would grant everything inside it.
 *
 * `GivenFiles` keeps the files the person dropped or picked in the desktop shell, by opaque
 * handle (UI.md "File paths"): the shell registers the path over `/v1` (bearer token), the page
 * only ever holds the handle, and the UI server turns it back into the checked path.
 */
import { randomBytes } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { isAbsolutePath } from "@svc/api";
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
    if (!info.isFile())
      throw new ToolError(
        "invalid",
        `"${where}": ${path} is not a file (folders and devices cannot be given to a tool)`,
      );
    real.push(resolved);
  }
  return real;
}

/** The most files remembered at once; past it the oldest is forgotten (its handle stops working). */
export const MAX_GIVEN_FILES = 1_000;

/** A handle as `GivenFiles` makes them: 24 URL-safe characters (144 random bits). */
const HANDLE = /^[A-Za-z0-9_-]{24}$/;

/** Is this value a handle in the wire's shape `{"handle": "<handle>"}`? */
export function isHandleRef(value: unknown): value is { handle: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    "handle" in value
  );
}

export class GivenFiles {
  private readonly byHandle = new Map<string, string>();

  constructor(private readonly limit = MAX_GIVEN_FILES) {}

  /**
   * Checks a path the person gave and hands back a new, unguessable handle for its real path.
   *
   * @throws ToolError "invalid" when the path is not absolute, does not exist or is not a regular file.
   * @example
   * await given.give("/Users/ann/a.pdf") // "q3V…" (24 characters)
   */
  async give(path: unknown): Promise<string> {
    if (typeof path !== "string" || !isAbsolutePath(path))
      throw new ToolError("invalid", '"path" should be the absolute path of a file');
    const [real] = await checkGivenFiles("path", [path]);
    const handle = randomBytes(18).toString("base64url");
    this.byHandle.set(handle, real!);
    if (this.byHandle.size > this.limit) this.byHandle.delete(this.byHandle.keys().next().value!);
    return handle;
  }

  /**
   * The real path behind a handle; `where` names the field in the error.
   *
   * @throws ToolError "invalid" for a handle that is malformed, unknown or forgotten.
   */
  pathOf(handle: unknown, where: string): string {
    if (typeof handle !== "string" || !HANDLE.test(handle))
      throw new ToolError("invalid", `"${where}" should be a file handle from the svc app`);
    const path = this.byHandle.get(handle);
    if (path === undefined) {
      throw new ToolError(
        "invalid",
        `"${where}": this file is not known to svc any more (svc forgets given files when it restarts, and after ${this.limit.toLocaleString("en-US")} newer ones): drop or choose it again`,
      );
    }
    return path;
  }

  get size(): number {
    return this.byHandle.size;
  }
}
