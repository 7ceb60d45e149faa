/**
 * One compact line per blip, and the notify line, for the terminal; each names who sent it. Pure:
 * `now` is given, so countdowns and sessions read the same in tests.
 */
import { speakerText, type Speaker } from "@svc/api";
import type { BlipView } from "../events/index.js";
import { clockTime, formatValue, shortDuration } from "./format-value.js";

const STATE_MARKS: Record<string, string> = {
  running: "▶",
  waiting: "…",
  success: "✔",
  warning: "!",
  failure: "✘",
  cancelled: "–",
  idle: "·",
};

type Data = Record<string, unknown>;

function record(value: unknown): Data {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : {};
}

function array(value: unknown): Data[] {
  return Array.isArray(value) ? value.map(record) : [];
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** `▓▓▓░░` for a fraction of 0–1. */
export function bar(fraction: unknown, width = 10): string {
  const f = typeof fraction === "number" && Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const filled = Math.round(f * width);
  return "▓".repeat(filled) + "░".repeat(width - filled);
}

function secondsUntil(iso: unknown, now: number): number | undefined {
  const at = typeof iso === "string" ? Date.parse(iso) : NaN;
  return Number.isNaN(at) ? undefined : (at - now) / 1000;
}

/**
 * What a layout's data says, in a few words.
 *
 * @example
 * summarizeLayout("meter", { meters: [{ label: "Disk", fraction: 0.71 }] }, Date.now()); // "Disk ▓▓▓▓▓▓▓░░░ 71%"
 */
export function summarizeLayout(layout: string | undefined, rawData: unknown, now: number): string {
  const data = record(rawData);
  switch (layout) {
    case "stat":
      return [
        formatValue(data.value, now),
        str(data.label),
        data.delta === undefined ? "" : `(${formatValue(data.delta, now)})`,
      ]
        .filter(Boolean)
        .join(" ");
    case "progress": {
      const pct = typeof data.fraction === "number" ? `${Math.round(data.fraction * 100)}%` : "";
      return [bar(data.fraction), pct, str(data.step)].filter(Boolean).join(" ");
    }
    case "session": {
      const since = secondsUntil(data.startedAt, now);
      return [since === undefined ? "" : `for ${shortDuration(-since)}`, str(data.step)].filter(Boolean).join(" · ");
    }
    case "list": {
      const items = array(data.items);
      const total = typeof data.total === "number" ? data.total : items.length;
      const first = items[0] ? ` · ${str(items[0].title)}` : "";
      return `${total} item${total === 1 ? "" : "s"}${first}`;
    }
    case "score": {
      const home = record(data.home);
      const away = record(data.away);
      const side = (s: Data) => formatValue(s.score, now);
      return `${str(home.name)} ${side(home)} – ${side(away)} ${str(away.name)}${data.period ? ` · ${str(data.period)}` : ""}`;
    }
    case "countdown": {
      const left = secondsUntil(data.endsAt, now);
      if (left === undefined) return "";
      return left > 0 ? `${clockTime(left)} left` : "time's up";
    }
    case "meter":
      return array(data.meters)
        .map((m) => {
          const value =
            m.value === undefined
              ? `${Math.round((typeof m.fraction === "number" ? m.fraction : 0) * 100)}%`
              : formatValue(m.value, now);
          return `${str(m.label)} ${bar(m.fraction, 5)} ${value}`;
        })
        .join("  ");
    default:
      return "";
  }
}

/** Marked stale at wake, or its `staleAfter` has passed (as the page draws it). */
function isStale(blip: BlipView, now: number): boolean {
  if (blip.stale === true) return true;
  const at = typeof blip.staleAfter === "string" ? Date.parse(blip.staleAfter) : NaN;
  return !Number.isNaN(at) && now > at;
}

/**
 * Who is speaking, framed the same way on every terminal line that carries a stranger's text:
 * `[Focus]`, or `[svc · com.evil.kc]` when the name alone could mislead (`speakerOf`).
 *
 * @example
 * speakerFrame({ name: "Focus" }); // "[Focus]"
 */
export function speakerFrame(speaker: Speaker): string {
  return `[${speakerText(speaker)}]`;
}

/**
 * The blip as one line: its state mark, who sent it, the title and what its layout says.
 *
 * @example
 * formatBlip({ id: "dev.svc.focus/session", title: "Focus", layout: "countdown", state: "running",
 *   data: { endsAt: "2030-01-01T00:25:00Z" }, from: { name: "Focus" } }, Date.parse("2030-01-01T00:00:00Z"));
 * // "▶ [Focus] Focus  25:00 left"
 */
export function formatBlip(blip: BlipView, now: number): string {
  const mark = STATE_MARKS[blip.state ?? ""] ?? "•";
  const summary = summarizeLayout(blip.layout, blip.data, now);
  const title = blip.title ?? blip.id;
  const ended = blip.ended ? " (ended)" : isStale(blip, now) ? " (stale)" : "";
  return `${mark} ${speakerFrame(blip.from)} ${title}${summary ? `  ${summary}` : ""}${ended}`;
}

/**
 * A notify line: the bell, who sent it, the title and the body.
 *
 * @example
 * notifyLine({ from: { name: "Focus" }, title: "Done", body: "Take a break" }); // "🔔 [Focus] Done — Take a break"
 */
/**
 * A device-flow sign-in's code and address, each on its own line (easy to copy from a terminal).
 *
 * @example
 * signInCodeLines({ from: { name: "CI" }, title: "GitHub", userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device" });
 * // ["🔑 [CI] To sign in to GitHub, open", "https://github.com/login/device", "and type the code", "WDJB-MJHT"]
 */
export function signInCodeLines(code: {
  from: Speaker;
  title: string;
  userCode: string;
  verificationUri: string;
}): string[] {
  return [
    `🔑 ${speakerFrame(code.from)} To sign in to ${code.title}, open`,
    code.verificationUri,
    "and type the code",
    code.userCode,
  ];
}

export function notifyLine(note: { from: Speaker; title: string; body?: string }): string {
  return `🔔 ${speakerFrame(note.from)} ${note.title}${note.body ? ` — ${note.body}` : ""}`;
}
