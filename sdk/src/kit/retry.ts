/**
 * Failures in a row, remembered between runs: what every extension that polls a service ends up
 * writing around `backoff`. After a failed call, `retryLater` counts it and says when to try
 * again (the service's own wait when it gave one, else `backoff`); after a call that worked,
 * `recovered` forgets the count.
 */
import type { Storage } from "../types.js";
import { backoff, type BackoffOptions } from "./backoff.js";
import type { Problem, ProblemKind } from "./connection.js";

/** Where the count is kept in `ctx.storage` unless told otherwise. */
export const FAILURES_KEY = "svc.failures";

/** Problems that may pass without anyone acting: worth saying when the next try is. */
const PASSING: ReadonlySet<ProblemKind> = new Set(["offline", "rate-limited", "unavailable"]);

/** Whether the problem may pass on its own (offline, rate limited, unavailable), so waiting helps. */
export const mayPass = (problem: Problem): boolean => PASSING.has(problem.kind);

export interface RetryPlan {
  /** Seconds: return it from `update()` as `nextRunAfter`. */
  nextRunAfter: number;
  /**
   * The problem, with `retryAfter` set to that wait when it may pass on its own (offline, rate
   * limited, unavailable), so `connectionBlip` says "Trying again in 5m"; left as it was when a
   * person must act (signed out, not found …), so the blip says what to fix.
   */
  problem: Problem;
  /** Failures in a row, this one included. */
  failures: number;
}

/**
 * Counts a failed call and plans the next try.
 *
 * @example
 * const res = await probe(fetch(url));
 * if (!res.ok) {
 *   const plan = await retryLater(ctx.storage, res.problem);
 *   await ctx.emit(connectionBlip("status", plan.problem, { title: "Status" }));
 *   return { nextRunAfter: plan.nextRunAfter };
 * }
 * await recovered(ctx.storage);
 */
export async function retryLater(
  storage: Storage,
  problem: Problem,
  options: BackoffOptions & { key?: string } = {},
): Promise<RetryPlan> {
  const { key = FAILURES_KEY, ...waiting } = options;
  const before = await storage.get<number>(key);
  const failures = (typeof before === "number" && before >= 0 ? before : 0) + 1;
  await storage.set(key, failures);
  const nextRunAfter = problem.retryAfter ?? backoff(failures - 1, waiting);
  return {
    nextRunAfter,
    problem: mayPass(problem) ? { ...problem, retryAfter: nextRunAfter } : problem,
    failures,
  };
}

/** Forgets the failures after a call that worked. */
export async function recovered(storage: Storage, key: string = FAILURES_KEY): Promise<void> {
  await storage.delete(key);
}
