/**
 * Timer coalescing: choosing one wake-up for several runs that fall close together.
 */

/** A run may start anywhere in `[at, at + toleranceMs]`. */
export interface Window {
  at: number;
  toleranceMs: number;
}

/**
 * The moment to wake: the earliest window's start pushed as late as possible while it still
 * lies inside every window it gathers. Walking the windows by start time, each next window that
 * starts before the gathered deadline joins (the wake-up moves to its start, the deadline
 * shrinks to the tighter of the two). So a lone run starts on time, and runs due within each
 * other's tolerance share one wake-up, none of them later than its own tolerance allows.
 *
 * @example
 * pickWakeUp([{ at: 100, toleranceMs: 10 }, { at: 105, toleranceMs: 6 }]); // 105: one wake-up for both
 * pickWakeUp([{ at: 100, toleranceMs: 10 }, { at: 111, toleranceMs: 6 }]); // 100: too far apart
 */
export function pickWakeUp(windows: readonly Window[]): number | undefined {
  const sorted = [...windows].sort((a, b) => a.at - b.at);
  const first = sorted[0];
  if (!first) return undefined;
  let wakeAt = first.at;
  let deadline = first.at + first.toleranceMs;
  for (const window of sorted.slice(1)) {
    if (window.at > deadline) break;
    wakeAt = window.at;
    deadline = Math.min(deadline, window.at + window.toleranceMs);
  }
  return wakeAt;
}
