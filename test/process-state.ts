/**
 * Process checks for tests that make sure what an extension started is gone: a zombie (killed,
 * not yet reaped by a slow init) counts as gone.
 */
import { existsSync, readFileSync } from "node:fs";

/** True while `pid` runs; false once it is gone or a zombie. */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return stat !== "" && !/^\d+ \(.*\) Z /.test(stat);
}

/** Polls `check` every 20 ms for up to `ms`; its last answer. */
export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
