/**
 * Short text for typed values (SPEC "typed value": `{type, value}`), as a terminal shows them
 * (svc-host's display, `svckit tool run`).
 */

/**
 * A length of time, compact: `45s`, `12m`, `1h 05m`, `3d 4h`.
 *
 * @example
 * shortDuration(3_900); // "1h 05m"
 */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 ? ` ${String(s % 60).padStart(2, "0")}s` : ""}`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/**
 * A clock-like countdown: `24:59`, `1:02:03`.
 *
 * @example
 * clockTime(1499); // "24:59"
 */
export function clockTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A display value (typed value, bare string or number) as text.
 *
 * @example
 * formatValue({ type: "percent", value: 0.42 }); // "42%"
 * formatValue({ type: "currency", value: { amount: 12.5, currency: "EUR" } }); // "€12.50"
 */
export function formatValue(value: unknown, now: number = Date.now()): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (!isRecord(value)) return "";
  const inner = value.value;
  switch (value.type) {
    case "number":
      return `${typeof inner === "number" ? inner.toLocaleString("en-US") : ""}${typeof value.unit === "string" ? ` ${value.unit}` : ""}`;
    case "percent":
      return typeof inner === "number" ? `${Math.round(inner * 100)}%` : "";
    case "duration":
      return typeof inner === "number" ? shortDuration(inner) : "";
    case "currency": {
      if (!isRecord(inner) || typeof inner.amount !== "number" || typeof inner.currency !== "string") return "";
      try {
        return inner.amount.toLocaleString("en-US", { style: "currency", currency: inner.currency });
      } catch {
        return `${inner.amount} ${inner.currency}`;
      }
    }
    case "date": {
      const at = typeof inner === "string" ? Date.parse(inner) : NaN;
      if (Number.isNaN(at)) return "";
      const seconds = (at - now) / 1000;
      return seconds >= 0 ? `in ${shortDuration(seconds)}` : `${shortDuration(-seconds)} ago`;
    }
    case "text":
      return typeof inner === "string" ? inner : "";
    default:
      return "";
  }
}
