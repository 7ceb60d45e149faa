/**
 * `console`: every method forwards one line (op `log`, with a level) to the host, which caps
 * its length. Logging never throws and never waits.
 */
import type { Bridge } from "./bridge.ts";
import { formatArgs } from "./format.ts";

type Level = "debug" | "info" | "warn" | "error";

/** Longest line sent; the host cuts again at its own limit. */
const MAX_CHARS = 8192;

/** Sends one log line; used by `console` and `ctx.log`. */
export function sendLog(bridge: Bridge, level: Level, args: unknown[]): void {
  let message: string;
  try {
    message = formatArgs(args);
  } catch (error) {
    message = `(console: could not format the message: ${String((error as Error)?.message ?? error)})`;
  }
  if (message.length > MAX_CHARS) message = `${message.slice(0, MAX_CHARS)}… (${message.length - MAX_CHARS} more characters)`;
  bridge.call("log", { level, message }).catch(() => {});
}

export function installConsole(bridge: Bridge): void {
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const at = (level: Level) => (...args: unknown[]) => sendLog(bridge, level, args);
  const console = {
    log: at("info"),
    info: at("info"),
    debug: at("debug"),
    trace: at("debug"),
    warn: at("warn"),
    error: at("error"),
    assert(condition: unknown, ...args: unknown[]) {
      if (!condition) sendLog(bridge, "error", ["Assertion failed", ...args]);
    },
    count(label = "default") {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      sendLog(bridge, "info", [`${label}: ${n}`]);
    },
    time(label = "default") {
      timers.set(label, performance.now());
    },
    timeEnd(label = "default") {
      const start = timers.get(label);
      timers.delete(label);
      if (start !== undefined) sendLog(bridge, "info", [`${label}: ${(performance.now() - start).toFixed(3)}ms`]);
    },
    dir: (value: unknown) => sendLog(bridge, "info", [value]),
  };
  Object.defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });
}
