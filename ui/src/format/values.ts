/**
 * Typed values (SDK `DisplayValue`) formatted for the person's locale: numbers, currency,
 * percent, durations, dates read relative ("in 5 minutes", "yesterday"), text.
 */
import type { DisplayValue, TypedValue } from "@svc/api";
import { CAPS, shown } from "./text.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `ms` as the largest fitting units: "1 h 5 min", "42 s", "3 d 2 h". */
export function formatDuration(ms: number, locale: string): string {
  const total = Math.max(0, Math.round(ms / SECOND));
  const parts: [number, Intl.NumberFormatOptions["unit"]][] = [
    [Math.floor(total / 86400), "day"],
    [Math.floor((total % 86400) / 3600), "hour"],
    [Math.floor((total % 3600) / 60), "minute"],
    [total % 60, "second"],
  ];
  const used = parts.filter(([n]) => n > 0).slice(0, 2);
  if (used.length === 0) used.push([0, "second"]);
  return used
    .map(([n, unit]) => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "narrow" }).format(n))
    .join(" ");
}

/** A clock-style "1:05:09" or "4:32", for countdowns and sessions. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / SECOND));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** A moment relative to now: "in 5 min", "2 hours ago", "yesterday". */
export function formatRelative(at: number, now: number, locale: string): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "long" });
  if (abs < MINUTE) return rtf.format(Math.round(diff / SECOND), "second");
  if (abs < HOUR) return rtf.format(Math.round(diff / MINUTE), "minute");
  if (abs < DAY) return rtf.format(Math.round(diff / HOUR), "hour");
  if (abs < 30 * DAY) return rtf.format(Math.round(diff / DAY), "day");
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(at);
}

function formatTyped(value: TypedValue, locale: string, now: number): string {
  switch (value.type) {
    case "number":
      return `${new Intl.NumberFormat(locale).format(value.value)}${value.unit ? ` ${shown(value.unit, CAPS.label)}` : ""}`;
    case "currency":
      try {
        return new Intl.NumberFormat(locale, { style: "currency", currency: value.value.currency }).format(
          value.value.amount,
        );
      } catch {
        return `${new Intl.NumberFormat(locale).format(value.value.amount)} ${shown(value.value.currency, 3)}`;
      }
    case "percent":
      return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(value.value);
    case "duration":
      return formatDuration(value.value, locale);
    case "date": {
      const at = Date.parse(value.value);
      return Number.isNaN(at) ? shown(value.value, CAPS.value) : formatRelative(at, now, locale);
    }
    case "text":
      return shown(value.value, CAPS.value);
    default:
      return "";
  }
}

/** Any display value as text for a person. Unknown shapes are shown as inert text. */
export function formatValue(value: DisplayValue | unknown, locale: string, now: number = Date.now()): string {
  if (typeof value === "number") return Number.isFinite(value) ? new Intl.NumberFormat(locale).format(value) : "";
  if (typeof value === "string") return shown(value, CAPS.value);
  if (value && typeof value === "object" && "type" in value) {
    try {
      return formatTyped(value as TypedValue, locale, now);
    } catch {
      return "";
    }
  }
  return "";
}

/** Whether a typed value moves the wrong way: a negative number or percent (for a delta's colour). */
export function isNegative(value: unknown): boolean {
  if (typeof value === "number") return value < 0;
  const typed = value as { type?: string; value?: unknown };
  if (typed?.type === "number" || typed?.type === "percent") return typeof typed.value === "number" && typed.value < 0;
  if (typed?.type === "currency") return ((typed.value as { amount?: number })?.amount ?? 0) < 0;
  return false;
}
