/**
 * `console`: every method forwards one line (op `log`, with a level) to the host, which caps
 * its length and paces lines (src/log-gate.ts). Logging never throws and never waits.
 */
import type { LogLevel } from "../src/bridge/op-table.ts";
import type { Bridge } from "./bridge.ts";
import { formatArgs } from "./format.ts";

type Level = LogLevel;

/** Longest line sent (the host applies the same rule, src/limits.ts MAX_LOG_CHARS). */
const MAX_CHARS = 8192;
/** Lines waiting for the host at once; past this, lines are dropped and counted. */
const MAX_WAITING = 1000;

let waiting = 0;
let dropped = 0;

/** Cuts a long message to MAX_CHARS, saying how much was cut (same rule as the host's). */
function cut(message: string): string {
  if (message.length <= MAX_CHARS) return message;
  const keep = MAX_CHARS - 40;
  return `${message.slice(0, keep)}… (${message.length - keep} more characters)`;
}

function send(bridge: Bridge, level: Level, message: string): void {
  waiting++;
  bridge.call("log", { level, message }).then(settled, settled);
  function settled(): void {
    waiting--;
    if (waiting === 0 && dropped > 0) {
      const count = dropped;
      dropped = 0;
      send(bridge, "warn", `console: ${count} lines dropped (more than ${MAX_WAITING} were waiting to be written)`);
    }
  }
}

/** Sends one log line; used by `console` and `ctx.log`. Never throws, never waits. */
export function sendLog(bridge: Bridge, level: Level, args: unknown[]): void {
  if (waiting >= MAX_WAITING) {
    dropped++;
    return;
  }
  let message: string;
  try {
    message = formatArgs(args);
  } catch (error) {
    message = `(console: could not format the message: ${String((error as Error)?.message ?? error)})`;
  }
  send(bridge, level, cut(message));
}

export function installConsole(bridge: Bridge): void {
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const at =
    (level: Level) =>
    (...args: unknown[]) =>
      sendLog(bridge, level, args);
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
