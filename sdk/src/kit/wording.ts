/**
 * Short phrases for the notch: how old something is, how long until something, how long
 * something took, and text trimmed to fit one line. English, compact ("3m ago", "in 2h"),
 * no Intl (the sandbox has none), and deterministic given `now`.
 */
import { type DateInput, toEpochMs } from "../builders/instant.js";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Units from largest to smallest, in seconds. */
const UNITS: ReadonlyArray<readonly [string, number]> = [
  ["d", DAY],
  ["h", HOUR],
  ["m", MINUTE],
  ["s", 1],
];

/**
 * A span of seconds in its two largest non-zero units, the smaller one rounded down.
 *
 * @example
 * durationText(45)    // "45s"
 * durationText(200)   // "3m 20s"
 * durationText(3725)  // "1h 2m"
 * durationText(90061) // "1d 1h"
 */
export function durationText(seconds: number): string {
  let rest = Number.isFinite(seconds) ? Math.floor(Math.max(0, seconds)) : 0;
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    if (parts.length === 2) break;
  }
  // Drop a zero in second place ("1h 0m" reads as "1h"); "0s" stays for an empty span.
  if (parts.length === 2 && parts[1].startsWith("0")) parts.pop();
  return parts.length > 0 ? parts.join(" ") : "0s";
}

/**
 * How long ago something happened, in one unit, rounded down. Under a minute, or in the
 * future (a clock a little ahead), it is "just now".
 *
 * @example
 * age(Date.now() - 3 * 60_000)        // "3m ago"
 * age("2024-05-01T10:00:00Z", Date.parse("2024-05-03T12:00:00Z")) // "2d ago"
 */
export function age(when: DateInput, now: number = Date.now()): string {
  const seconds = Math.floor((now - toEpochMs(when)) / 1000);
  if (seconds < MINUTE) return "just now";
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)}m ago`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)}h ago`;
  const days = Math.floor(seconds / DAY);
  if (days < 14) return `${days}d ago`;
  if (days < 60) return `${Math.floor(days / 7)}w ago`;
  if (days < 365) return `${Math.floor(days / 30)}mo ago`;
  return `${Math.floor(days / 365)}y ago`;
}

/**
 * How long until a moment: "in 45s", "in 12m", "in 1h 5m", "in 2d 4h". The last unit shown
 * is rounded up, so it never promises less time than is left. Within a minute after the
 * moment it is "now"; further past, it reads like {@link age} ("3m ago").
 *
 * @example
 * timeLeft(Date.now() + 2 * 3600_000) // "in 2h"
 */
export function timeLeft(when: DateInput, now: number = Date.now()): string {
  const left = Math.ceil((toEpochMs(when) - now) / 1000);
  if (left <= 0) return left > -MINUTE ? "now" : age(when, now);
  // Seconds only while under a minute; minutes up to a day; hours beyond.
  const step = left < MINUTE ? 1 : left < DAY ? MINUTE : HOUR;
  return `in ${durationText(Math.ceil(left / step) * step)}`;
}

/**
 * How long something has been going on since `since` (no "ago"): for "building for 3m 20s".
 *
 * @example
 * howLong(startedAt)              // "3m 20s"
 * `Deploying for ${howLong(t)}`
 */
export function howLong(since: DateInput, now: number = Date.now()): string {
  return durationText((now - toEpochMs(since)) / 1000);
}

/**
 * Text fitted to at most `max` characters on one line: runs of white space (line breaks
 * included) become one space, and text that is still too long ends in "…". Characters
 * outside the Basic Multilingual Plane (emoji) count as one and are never split.
 *
 * @example
 * clip("Fix the flaky login test on CI", 16) // "Fix the flaky l…"
 */
export function clip(text: string, max = 80): string {
  const chars = Array.from(
    String(text ?? "")
      .replace(/\s+/g, " ")
      .trim(),
  );
  if (chars.length <= max) return chars.join("");
  if (max < 1) return "";
  return `${chars
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

/**
 * A list of names as a phrase: "Ana", "Ana and Bo", "Ana, Bo and Cy", or past `max` names
 * "Ana, Bo and 3 others". Empty and repeated names are left out.
 *
 * @example
 * names(["Ana", "Bo", "Cy", "Di", "Ed"]) // "Ana, Bo and 3 others"
 * names(["Ana", "Bo", "Cy"], 3)          // "Ana, Bo and Cy"
 */
export function names(list: readonly string[], max = 2): string {
  const unique = [...new Set(list.map((name) => String(name ?? "").trim()).filter(Boolean))];
  const shown = Math.max(1, Math.floor(max));
  if (unique.length <= shown) {
    if (unique.length <= 1) return unique.join("");
    return `${unique.slice(0, -1).join(", ")} and ${unique[unique.length - 1]}`;
  }
  const others = unique.length - shown;
  return `${unique.slice(0, shown).join(", ")} and ${others} ${others === 1 ? "other" : "others"}`;
}

/**
 * Parts of a subtitle joined with " · ", leaving out the ones that are missing, so optional
 * details need no `if`s. Numbers are kept, 0 included.
 *
 * @example
 * joinLine(["#412", author, labels.length ? labels.join(", ") : null, age(t)])
 * // "#412 · ana · 3m ago"
 */
export function joinLine(parts: ReadonlyArray<string | number | null | undefined | false>, separator = " · "): string {
  return parts
    .filter((part): part is string | number =>
      typeof part === "number" ? Number.isFinite(part) : typeof part === "string" && part.trim() !== "",
    )
    .map((part) => String(part).trim())
    .join(separator);
}

const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * A size in bytes, in 1024s, to one decimal below 10 of its unit.
 *
 * @example
 * bytesText(512)           // "512 B"
 * bytesText(1_572_864)     // "1.5 MB"
 * bytesText(432_013_312)   // "412 MB"
 */
export function bytesText(bytes: number): string {
  const size = Math.max(0, bytes);
  const unit = Math.min(BYTE_UNITS.length - 1, size < 1 ? 0 : Math.floor(Math.log(size) / Math.log(1024)));
  const scaled = size / 1024 ** unit;
  const shown = unit > 0 && scaled < 9.95 ? scaled.toFixed(1) : String(Math.round(scaled));
  return `${shown} ${BYTE_UNITS[unit]}`;
}
