/**
 * The display when stdout is not a terminal: one line per change, each with the time, so a log
 * file or a pipe reads as a history.
 */
import { escapeForDisplay } from "@svc/api";
import type { HostEvent } from "../events/index.js";
import type { Display } from "./display.js";
import { EventLines, MAX_LINE_CHARS, type LogLevel } from "./describe-event.js";

export interface LineDisplayOptions {
  write(text: string): void;
  now?: () => number;
  logLevel?: LogLevel;
}

function stamp(at: number): string {
  return new Date(at).toTimeString().slice(0, 8);
}

/**
 * @example
 * const display = new LineDisplay({ write: (text) => process.stdout.write(text) });
 * display.show({ type: "notify", from: { name: "Focus" }, title: "Done" }); // "14:02:11 🔔 [Focus] Done\n"
 */
export class LineDisplay implements Display {
  private readonly now: () => number;
  private readonly lines: EventLines;

  constructor(private readonly options: LineDisplayOptions) {
    this.now = options.now ?? Date.now;
    this.lines = new EventLines(options.logLevel ?? "info");
  }

  show(event: HostEvent): void {
    const now = this.now();
    const lines = this.lines.of(event, now);
    if (!lines) return;
    // Each line holds strangers' text (titles, log messages): escaped at the last moment, always.
    this.options.write(
      lines.map((line) => `${stamp(now)} ${escapeForDisplay(line, { max: MAX_LINE_CHARS })}\n`).join(""),
    );
  }

  blips(): void {
    // Every change already had its own line.
  }

  dispose(): void {}
}
