/**
 * Spans of time as tests write them: `"5m"`, `"1h30m"`, `"90s"`, `"2d"`, `"250ms"`, or a number
 * of milliseconds.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * @example
 * toMilliseconds("1h30m") // 5_400_000
 * toMilliseconds(250)     // 250
 */
export function toMilliseconds(span: string | number): number {
  if (typeof span === "number") {
    if (!Number.isFinite(span) || span < 0) throw new RangeError(`a span of time should be 0 ms or more; got ${span}`);
    return span;
  }
  const text = span.trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.replace(/\s+/g, "")) {
    throw new RangeError(
      `"${span}" is not a span of time: write it like "250ms", "90s", "5m", "1h30m" or "2d", or give milliseconds`,
    );
  }
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNIT_MS[unit], 0);
}
