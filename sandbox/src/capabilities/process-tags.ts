/**
 * Finding every process an exec started, however it tried to leave. Each exec's environment
 * carries `SVC_EXEC_TAG=<owner>.<thread>.<n>`; children inherit it, including ones that left the
 * process group with `setsid` or were re-parented to init when their parent exited. Killing a
 * tag kills its process group, then every process whose environment holds the tag (or a tag
 * below it), again until none is left (a process forking while we kill is caught on the next
 * pass). So a tag's owner can end everything it started: an exec at its timeout, a sandbox at
 * its disposal, and the pool when a host thread ends (the tags of a thread share its prefix,
 * which the pool keeps outside the thread).
 *
 * Linux reads `/proc/<pid>/environ`. Elsewhere only the process group is killed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

/** The environment variable that marks an exec's processes. */
export const EXEC_TAG_VARIABLE = "SVC_EXEC_TAG";

/** A fresh tag prefix, unique to this process: `svc-<12 hex>`. */
export function newTagPrefix(): string {
  return `svc-${randomBytes(6).toString("hex")}`;
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ESRCH: gone already; EPERM: not ours.
  }
}

/** Processes whose environment holds `tag` or a tag below it (`tag.…`). Linux only; [] elsewhere. */
export function processesTagged(tag: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const exact = `${EXEC_TAG_VARIABLE}=${tag}`;
  const below = `${exact}.`;
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, "latin1");
    } catch {
      continue; // gone, or another user's
    }
    if (!environ.includes(exact)) continue;
    if (environ.split("\0").some((pair) => pair === exact || pair.startsWith(below))) found.push(Number(entry));
  }
  return found;
}

/**
 * Kills the process group `groupId` (when given) and every process tagged `tag` or below it.
 * Synchronous, so it also works from a process's `exit` handler.
 */
export function killTagged(tag: string, groupId?: number): void {
  if (groupId !== undefined) {
    try {
      process.kill(-groupId, "SIGKILL");
    } catch {
      // ESRCH: nothing left in the group.
    }
  }
  // A zombie's environ reads empty, so a killed process is not found again.
  for (let pass = 0; pass < 20; pass++) {
    const left = processesTagged(tag);
    if (left.length === 0) return;
    left.forEach(kill);
  }
}
