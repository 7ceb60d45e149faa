/**
 * Timers on host time: each pending timer is one `timer.sleep` host call; clearing cancels it
 * there. Callbacks run as their own guest slice when the host says the time has come (later
 * when the sandbox is past its firing budget, src/timer-ops.ts).
 */
import type { Bridge } from "./bridge.ts";

type Callback = (...args: unknown[]) => void;

/** Pending timers per sandbox (the host enforces the same limit, src/limits.ts MAX_TIMERS). */
const MAX_TIMERS = 1000;

interface Timer {
  callback: Callback;
  args: unknown[];
  ms: number;
  repeat: boolean;
}

export function installTimers(bridge: Bridge): void {
  const timers = new Map<number, Timer>();
  let nextId = 1;

  function arm(id: number, timer: Timer): void {
    bridge.call("timer.sleep", { id, ms: timer.ms }).then(
      () => fire(id, timer),
      (error: Error) => {
        timers.delete(id);
        reportError(error);
      },
    );
  }

  function fire(id: number, timer: Timer): void {
    if (timers.get(id) !== timer) return; // cleared meanwhile
    if (timer.repeat) arm(id, timer);
    else timers.delete(id);
    try {
      timer.callback(...timer.args);
    } catch (error) {
      reportError(error);
    }
  }

  function start(callback: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    if (typeof callback !== "function") throw new TypeError("The callback must be a function");
    if (timers.size >= MAX_TIMERS) throw new RangeError(`setTimeout: too many timers pending (limit ${MAX_TIMERS})`);
    const delay = Math.min(Math.max(Number(ms) || 0, 0), 2_147_483_647);
    const id = nextId++;
    const timer = { callback: callback as Callback, args, ms: delay, repeat };
    timers.set(id, timer);
    arm(id, timer);
    return id;
  }

  function clear(id: unknown): void {
    const key = Number(id);
    if (!timers.delete(key)) return;
    bridge.callSync("timer.cancel", { id: key });
  }

  const g = globalThis as Record<string, unknown>;
  g.setTimeout = (callback: unknown, ms?: unknown, ...args: unknown[]) => start(callback, ms, args, false);
  g.setInterval = (callback: unknown, ms?: unknown, ...args: unknown[]) => start(callback, ms, args, true);
  g.clearTimeout = clear;
  g.clearInterval = clear;
}

/** An uncaught error in a callback: logged like a browser would, never fatal. */
export function reportError(error: unknown): void {
  const e = error as Error;
  console.error(`Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : String(error)}`);
}
