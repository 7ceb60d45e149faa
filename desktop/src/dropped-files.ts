/**
 * The files the person dropped on or picked in the notch, remembered by the shell only as
 * allowed places for `openFile` (a result block may hand a given file back). The grant itself
 * lives in the host: the shell registers each path there (`POST /v1/given-files`) and the page
 * gets the host's opaque handle, never the path (UI.md "File paths").
 */

/** The most files remembered; the oldest is forgotten first (as the host does). */
export const MAX_DROPPED_FILES = 1_000;

export class DroppedFiles {
  private readonly remembered = new Set<string>();

  remember(path: string): void {
    // Again at the end: a file dropped anew is the newest.
    this.remembered.delete(path);
    this.remembered.add(path);
    if (this.remembered.size > MAX_DROPPED_FILES) this.remembered.delete(this.remembered.values().next().value!);
  }

  /** The dropped paths, for the allowed places of `openFile`. */
  paths(): ReadonlySet<string> {
    return new Set(this.remembered);
  }
}
