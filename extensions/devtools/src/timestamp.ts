/**
 * Timestamps: epoch seconds, milliseconds, microseconds or nanoseconds (told apart by size, as
 * the SDK's `date()` does for the first two), ISO 8601 or another date `Date` reads, or `now`,
 * shown every way at once, local times in the person's time zone (the sandbox's `Date` uses it).
 */
import { date, status, table, type Block } from "@svc/api";

/** An epoch number's unit, by its size: seconds below 1e12, then ms, µs and ns. */
function fromEpoch(n: number): { ms: number; unit: string } {
  const size = Math.abs(n);
  if (size < 1e12) return { ms: n * 1000, unit: "seconds" };
  if (size < 1e15) return { ms: n, unit: "milliseconds" };
  if (size < 1e18) return { ms: n / 1000, unit: "microseconds" };
  return { ms: n / 1e6, unit: "nanoseconds" };
}

const pad = (n: number, width = 2) => String(Math.abs(Math.trunc(n))).padStart(width, "0");

/** `2026-01-01 13:00:00 UTC+01:00` in the zone `Date`'s local getters use. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const zone =
    offset === 0
      ? "UTC"
      : `UTC${offset > 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${zone}`;
}

/** A date value (read relative by the notch) for years 1–9999, which typed dates hold; else the year. */
function relative(ms: number) {
  try {
    return date(new Date(ms));
  } catch {
    return `year ${new Date(ms).getUTCFullYear()}`;
  }
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/**
 * @example
 * timestampTool({ input: "1767225600" }, Date.now())
 */
export function timestampTool(values: { input: string }, now: number = Date.now()): Block[] {
  const input = values.input.trim();
  let ms: number;
  let readAs: string;
  if (input === "" || input.toLowerCase() === "now") {
    ms = now;
    readAs = "now";
  } else if (/^-?\d+(?:\.\d+)?$/.test(input)) {
    const epoch = fromEpoch(Number(input));
    ms = epoch.ms;
    readAs = `epoch ${epoch.unit}`;
  } else {
    ms = Date.parse(input);
    readAs = /^\d{4}-\d{2}-\d{2}T/.test(input) ? "ISO 8601" : "a date";
    if (Number.isNaN(ms))
      return [
        status(
          "Not a time: write epoch seconds or milliseconds, an ISO 8601 date such as 2026-01-01T12:00:00Z, or now",
          "critical",
        ),
      ];
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    return [status("That moment is outside the years JavaScript dates reach (±275,000)", "critical")];
  const d = new Date(ms);
  return [
    status(`Read as ${readAs}`),
    table([
      { name: "Relative", value: relative(ms) },
      { name: "Local", value: localTime(ms) },
      { name: "UTC (ISO 8601)", value: d.toISOString() },
      { name: "Epoch seconds", value: String(Math.floor(ms / 1000)) },
      { name: "Epoch milliseconds", value: String(Math.floor(ms)) },
      { name: "Day", value: WEEKDAYS[d.getDay()] },
    ]),
  ];
}
