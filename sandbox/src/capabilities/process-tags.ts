/**
 * Finding every process an exec started, however it tried to leave. Each exec's environment
 * carries `SVC_EXEC_TAG=<owner>.<thread>.<n>`; children inherit it, including ones that left the
 * process group with `setsid` or were re-parented to init when their parent exited. Killing a
 * tag kills its process group, then every process whose environment holds the tag (or a tag
 * below it), again until none is left (a process forking while we kill is caught on the next
 * pass). So a tag's owner can end everything it started: an exec at its timeout, a sandbox at
 * its disposal, and the pool when a sandbox thread ends (the tags of a thread share its prefix,
 * which the pool keeps outside the thread).
 *
 * Linux reads `/proc/<pid>/environ`. Elsewhere only the process group is killed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";

/** The environment variable that marks an exec's processes. */
export const EXEC_TAG_VARIABLE = "SVC_EXEC_TAG";

/**
 * Set by whoever starts this process (svc-host starting svc-runtime) to its own tag prefix: the
 * tags made here then sit below it, so that parent can kill what is left if this process dies
 * without cleaning up (SIGKILL, a crash).
 */
export const EXEC_OWNER_VARIABLE = "SVC_EXEC_OWNER";

/** A fresh tag prefix, unique to this process: `svc-<12 hex>`, below `SVC_EXEC_OWNER` when set. */
export function newTagPrefix(): string {
  const owner = process.env[EXEC_OWNER_VARIABLE];
  const own = `svc-${randomBytes(6).toString("hex")}`;
  return owner && /^[\w.-]{1,100}$/.test(owner) ? `${owner}.${own}` : own;
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ESRCH: gone already; EPERM: not ours.
  }
}

/** True when a process environment (`/proc/<pid>/environ` text) holds `tag` or a tag below it. */
function holdsTag(environ: string, tag: string): boolean {
  const exact = `${EXEC_TAG_VARIABLE}=${tag}`;
  if (!environ.includes(exact)) return false;
  return environ.split("\0").some((pair) => pair === exact || pair.startsWith(`${exact}.`));
}

/** The process ids /proc lists, this process left out. */
function processIds(entries: string[]): string[] {
  return entries.filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
}

function killGroup(groupId: number | undefined): void {
  if (groupId === undefined) return;
  try {
    process.kill(-groupId, "SIGKILL");
  } catch {
    // ESRCH: nothing left in the group.
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
  return processIds(entries)
    .filter((pid) => {
      try {
        return holdsTag(readFileSync(`/proc/${pid}/environ`, "latin1"), tag);
      } catch {
        return false; // gone, or another user's
      }
    })
    .map(Number);
}

/** `processesTagged` without blocking the thread (a scan costs a few ms per hundred processes). */
async function processesTaggedAsync(tag: string): Promise<number[]> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const found = await Promise.all(
    processIds(entries).map(async (pid) => {
      const environ = await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
      return holdsTag(environ, tag) ? Number(pid) : undefined;
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}

/** How many times the scan is repeated, for processes forking while they are killed. */
const PASSES = 20;

/**
 * Kills the process group `groupId` (when given) and every process tagged `tag` or below it.
 * Synchronous, for a process's `exit` handler and a thread that has ended; `killTaggedSoon`
 * for the rest. A zombie's environ reads empty, so a killed process is not found again.
 */
export function killTagged(tag: string, groupId?: number): void {
  killGroup(groupId);
  for (let pass = 0; pass < PASSES; pass++) {
    const left = processesTagged(tag);
    if (left.length === 0) return;
    left.forEach(kill);
  }
}

/** `killTagged` without blocking the calling thread (a sandbox thread runs guests). */
export async function killTaggedSoon(tag: string, groupId?: number): Promise<void> {
  killGroup(groupId);
  for (let pass = 0; pass < PASSES; pass++) {
    const left = await processesTaggedAsync(tag);
    if (left.length === 0) return;
    left.forEach(kill);
  }
}
