// Small statistics for noisy machines: we quote medians and tail percentiles, never means.

/** The q-quantile (0..1) of a list of numbers, by nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => quantile(values, 0.5);

/** Formats a number with a fixed count of decimals and an optional unit. */
export function fmt(value, decimals = 1, unit = "") {
  return `${Number.isFinite(value) ? value.toFixed(decimals) : "n/a"}${unit}`;
}

/** Prints a table of rows (objects with the same keys) as aligned Markdown. */
export function printTable(title, rows) {
  console.log(`\n### ${title}\n`);
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(line(keys));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(keys.map((k) => row[k])));
}

/** Median, p90 and count of a list of samples, for the JSON results. */
export function summarize(values) {
  return { median: median(values), p90: quantile(values, 0.9), n: values.length };
}
