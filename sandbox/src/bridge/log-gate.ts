/**
 * One sandbox's log lines on their way to the host, paced: a token bucket of characters
 * (LOG_CHARS_PER_SECOND, bursts of LOG_BURST_CHARS; each line costs its text plus
 * LOG_LINE_COST_CHARS). A line past the budget is dropped here, on the sandbox thread, before it
 * costs the protocol thread anything, and LOG_DROP_NOTICE_MS after the first drop one `warn`
 * line says how many were dropped and why, so an author sees it in `svckit dev`.
 */
import { LOG_BURST_CHARS, LOG_CHARS_PER_SECOND, LOG_DROP_NOTICE_MS, LOG_LINE_COST_CHARS } from "../limits.js";
import type { LogLevel } from "../types.js";

export interface LogLine {
  level: LogLevel;
  message: string;
}

const KiB = 1024;

/** The warning sent after `count` lines were dropped. */
export function droppedLinesNotice(count: number): string {
  const lines = count === 1 ? "1 log line" : `${count} log lines`;
  return `${lines} dropped (logs are limited to ${LOG_CHARS_PER_SECOND / KiB} KB a second, in bursts of up to ${LOG_BURST_CHARS / KiB} KB): log less often or less at a time`;
}

/**
 * @example
 * const gate = new LogGate((line) => host.forward("log", line));
 * gate.send({ level: "info", message: "hello" }); // forwarded, or dropped and counted
 * gate.dispose();
 */
export class LogGate {
  private tokens = LOG_BURST_CHARS;
  private refilledAt: number;
  private droppedSinceNotice = 0;
  private notice: ReturnType<typeof setTimeout> | undefined;
  /** Lines dropped in the sandbox's life (diagnostics). */
  dropped = 0;

  constructor(
    private readonly forward: (line: LogLine) => Promise<unknown>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.refilledAt = now();
  }

  /** Forwards the line if the budget has room (the host's answer), else drops it (null at once). */
  send(line: LogLine): Promise<unknown> {
    return this.admit(line.message.length) ? this.forward(line) : Promise.resolve(null);
  }

  /**
   * Charges one line of `length` characters that the owner will write (a denial becomes one):
   * true when the budget has room, else false and the line is counted as dropped.
   */
  admit(length: number): boolean {
    const cost = length + LOG_LINE_COST_CHARS;
    this.refill();
    if (cost <= this.tokens) {
      this.tokens -= cost;
      return true;
    }
    this.dropped++;
    this.droppedSinceNotice++;
    this.notice ??= setTimeout(() => this.sendNotice(), LOG_DROP_NOTICE_MS);
    return false;
  }

  /** Stops the pending notice; the gate forwards nothing more after this. */
  dispose(): void {
    clearTimeout(this.notice);
    this.notice = undefined;
    this.droppedSinceNotice = 0;
  }

  /** The warning goes whatever the budget: at most one a LOG_DROP_NOTICE_MS, so it cannot flood. */
  private sendNotice(): void {
    this.notice = undefined;
    const count = this.droppedSinceNotice;
    this.droppedSinceNotice = 0;
    this.forward({ level: "warn", message: droppedLinesNotice(count) }).catch(() => {});
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(LOG_BURST_CHARS, this.tokens + ((now - this.refilledAt) * LOG_CHARS_PER_SECOND) / 1000);
    this.refilledAt = now;
  }
}
