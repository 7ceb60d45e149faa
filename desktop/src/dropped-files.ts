/**
 * Files the person dropped on the notch, by opaque handle: the page never holds a path, only a
 * handle (UI.md "File paths"). A dropped file also counts as an allowed place for opening.
 * Handing the path on to the host (a read grant for the extension) is finished with the UI.
 */
import { randomBytes } from "node:crypto";

/** The most files remembered; the oldest is forgotten first. */
export const MAX_DROPPED_FILES = 1_000;

export class DroppedFiles {
  private readonly byHandle = new Map<string, string>();

  register(path: string): string {
    const handle = randomBytes(16).toString("base64url");
    this.byHandle.set(handle, path);
    if (this.byHandle.size > MAX_DROPPED_FILES) this.byHandle.delete(this.byHandle.keys().next().value!);
    return handle;
  }

  pathOf(handle: string): string | undefined {
    return this.byHandle.get(handle);
  }

  /** The dropped paths, for the allowed places of `openFile`. */
  paths(): ReadonlySet<string> {
    return new Set(this.byHandle.values());
  }
}
