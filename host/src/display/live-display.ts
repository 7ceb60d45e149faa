/**
 * The display when stdout is a terminal: a compact panel of the live blips, redrawn in place
 * (and every second, so countdowns tick), with notifications shown inside it for a few seconds.
 * Anything else worth a line (an error, a warning, a reload) is printed above the panel, where
 * it stays in the scrollback.
 */
import { escapeForDisplay } from "@svc/api";
import type { BlipView, HostEvent } from "../events/index.js";
import type { Display } from "./display.js";
import { EventLines, MAX_LINE_CHARS, type LogLevel } from "./describe-event.js";
import { formatBlip, notifyLine } from "./format-blip.js";

/** How long a notification stays in the panel (SPEC: "a line under the notch for a few seconds"). */
export const NOTIFY_SHOWN_MS = 6_000;
/**
 * After lines are printed above it, the panel is drawn again within this long, once however
 * many lines came: a flood of log lines would otherwise redraw every blip for every line.
 */
export const PANEL_AFTER_LINES_MS = 50;

export interface TerminalLike {
  write(text: string): void;
  columns?: number;
}

export interface LiveDisplayOptions {
  terminal: TerminalLike;
  now?: () => number;
  logLevel?: LogLevel;
  /** Redraw period; 0 turns the ticking off (tests). */
  tickMs?: number;
}

const CLEAR_TO_END = "\x1b[J";
const up = (lines: number) => (lines > 0 ? `\x1b[${lines}F` : "\r");

/**
 * @example
 * const display = new LiveDisplay({ terminal: process.stdout });
 * display.blips(store.list());
 */
export class LiveDisplay implements Display {
  private current: readonly BlipView[] = [];
  private notes: { text: string; until: number }[] = [];
  private drawnLines = 0;
  private header = "svc";
  private paused = false;
  private readonly ticker: NodeJS.Timeout | undefined;
  private panelSoon: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly lines: EventLines;
  /** Extensions whose last run failed or timed out: their blips may be out of date. */
  private readonly failing = new Set<string>();

  constructor(private readonly options: LiveDisplayOptions) {
    this.now = options.now ?? Date.now;
    this.lines = new EventLines(options.logLevel ?? "info");
    const tick = options.tickMs ?? 1_000;
    if (tick > 0) {
      this.ticker = setInterval(() => this.redraw(), tick);
      this.ticker.unref();
    }
  }

  show(event: HostEvent): void {
    const now = this.now();
    if (event.type === "notify") {
      this.notes.push({
        text: notifyLine(event),
        until: now + NOTIFY_SHOWN_MS,
      });
      this.redraw();
      return;
    }
    if (event.type === "started") this.header = `svc${event.port ? ` · http 127.0.0.1:${event.port}` : ""}`;
    if (event.type === "paused" || event.type === "resumed") this.paused = event.type === "paused";
    if (event.type === "run.end") {
      if (event.result === "ok") this.failing.delete(event.id);
      else this.failing.add(event.id);
    }
    if (event.type === "extension.unloaded") this.failing.delete(event.id);
    // Blip changes are the panel itself; they need no line of their own. A denial's line is its log event.
    if (event.type === "blip" || event.type === "blips.restored" || event.type === "denied") return;
    const lines = this.lines.of(event, now);
    if (lines) this.printAbove(lines);
    else this.redraw();
  }

  blips(blips: readonly BlipView[]): void {
    this.current = blips;
    this.redraw();
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    clearTimeout(this.panelSoon);
    this.redraw();
  }

  private printAbove(lines: string[]): void {
    // These lines scroll away above the panel and are never redrawn, so a long one may wrap:
    // a hint or an error is never cut at the terminal's width. Only the panel is clipped.
    this.options.terminal.write(
      `${up(this.drawnLines)}${CLEAR_TO_END}${lines.map((line) => `${escapeForDisplay(line, { max: MAX_LINE_CHARS })}\n`).join("")}`,
    );
    this.drawnLines = 0;
    this.panelSoon ??= setTimeout(() => this.redraw(), PANEL_AFTER_LINES_MS);
    this.panelSoon.unref?.();
  }

  private redraw(): void {
    clearTimeout(this.panelSoon);
    this.panelSoon = undefined;
    const now = this.now();
    this.notes = this.notes.filter((note) => note.until > now);
    const width = this.width();
    const panel = [
      `${this.header}${this.paused ? " · paused" : ""} · ${this.current.length} blip${this.current.length === 1 ? "" : "s"}`,
      ...this.current.map(
        (blip) => `  ${formatBlip(blip, now)}${this.failing.has(extensionOf(blip.id)) ? STALE_MARK : ""}`,
      ),
      ...this.notes.map((note) => `  ${note.text}`),
    ].map((line) => clip(line, width));
    this.options.terminal.write(`${up(this.drawnLines)}${CLEAR_TO_END}${panel.join("\n")}\n`);
    this.drawnLines = panel.length;
  }

  private width(): number {
    return Math.max(20, this.options.terminal.columns || 80);
  }
}

/** After a blip whose extension's last run failed: its figures are those of an earlier run. */
export const STALE_MARK = " · ⚠ last run failed";

/** The extension part of a blip id, `<extension id>/<key>`. */
function extensionOf(blipId: string): string {
  const slash = blipId.lastIndexOf("/");
  return slash < 0 ? blipId : blipId.slice(0, slash);
}

/**
 * Makes a line inert (strangers' titles, notes and log lines: every control and bidi character
 * escaped, display-text.ts) and cuts it to the terminal width so it never wraps into two (which
 * would break the redraw). Our own cursor moves are added around the lines, never inside.
 */
function clip(raw: string, width: number): string {
  const line = escapeForDisplay(raw);
  const chars = [...line];
  return chars.length < width ? line : `${chars.slice(0, width - 2).join("")}…`;
}
