/** Test helpers for the pool's spare instance. */
import type { SandboxPool } from "./pool.js";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every sandbox thread of `pool` has its spare ready. A spare is made when the
 * thread is idle: on a busy machine that can take seconds.
 */
export async function spareReady(pool: SandboxPool): Promise<void> {
  for (const deadline = performance.now() + 20_000; performance.now() < deadline; await sleep(50)) {
    if ((await pool.stats()).every((thread) => thread.spare)) return;
  }
  throw new Error("no spare was made within 20 s");
}
