/** Process helpers for the lifetime tests (Linux /proc). */
import { readdirSync, readFileSync } from "node:fs";

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Child pids of `pid`, from every thread's children list. */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The command line of `pid`, arguments joined by spaces (empty once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Waits until none of `pids` runs; resolves with how long that took, or rejects after `withinMs`. */
export async function allGone(pids: number[], withinMs: number): Promise<number> {
  const started = performance.now();
  while (pids.some(isRunning)) {
    if (performance.now() - started > withinMs) {
      throw new Error(
        `still running after ${withinMs} ms: ${pids
          .filter(isRunning)
          .map((pid) => `${pid} ${commandLine(pid)}`)
          .join(", ")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

/**
 * Waits until a child of `parent` whose command line starts with one of `commands` runs, and
 * returns its pid: a child is started asynchronously, and on a busy machine that can take a while.
 */
export async function childAppears(parent: number, commands: string[], withinMs: number): Promise<number | undefined> {
  const started = performance.now();
  for (;;) {
    const found = childrenOf(parent).find((pid) => commands.some((command) => commandLine(pid).startsWith(command)));
    if (found !== undefined || performance.now() - started > withinMs) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** CPU time `pid` has used, in ms (utime + stime at the kernel's 100 Hz). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
