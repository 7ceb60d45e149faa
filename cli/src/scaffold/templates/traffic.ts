/** `traffic`: quota use as a meter — requests and bandwidth against their limits, with reset times. */
import { COMMON_CODE } from "../snippets.js";
import type { Template } from "../template.js";

const source = `import { defineExtension, meter, number, timeLeft } from "@svc/api";

${COMMON_CODE}

/** One quota as your API reports it. \`resetsAt\` is an ISO time or epoch seconds. */
interface Quota {
  used: number;
  limit: number;
  resetsAt?: string | number;
}

/** What your API answers: any quotas you care about (up to four are shown). */
interface Usage {
  requests: Quota;
  bandwidthGB: Quota;
}

function sampleUsage(now: number): Usage {
  const endOfDay = new Date(now);
  endOfDay.setUTCHours(24, 0, 0, 0);
  const endOfMonth = new Date(now);
  endOfMonth.setUTCMonth(endOfMonth.getUTCMonth() + 1, 1);
  endOfMonth.setUTCHours(0, 0, 0, 0);
  return {
    requests: { used: 41_500, limit: 50_000, resetsAt: endOfDay.toISOString() },
    bandwidthGB: { used: 312, limit: 1000, resetsAt: endOfMonth.toISOString() },
  };
}

/** Share of a quota used, 0–1; a limit of 0 counts as fully used. */
const used = (quota: Quota) => (quota.limit > 0 ? quota.used / quota.limit : 1);

/** From this share of any quota up the blip turns orange, and red when a quota is spent. */
const WARN_FROM = 0.8;

export default defineExtension<Prefs>({
  async update(ctx) {
    const url = ctx.preferences.apiUrl?.trim();
    const usage = url ? await fetchJson<Usage>(url, ctx.preferences.apiToken) : sampleUsage(Date.now());
    const quotas = [
      { label: "Requests", quota: usage.requests, unit: "req" },
      { label: "Bandwidth", quota: usage.bandwidthGB, unit: "GB" },
    ];
    const highest = Math.max(...quotas.map(({ quota }) => used(quota)));
    const tightest = quotas.find(({ quota }) => used(quota) === highest);
    await ctx.emit(
      meter("traffic", {
        title: titled("Traffic", !url),
        subtitle: url
          ? tightest?.quota.resetsAt !== undefined ? \`\${tightest.label} resets \${timeLeft(tightest.quota.resetsAt)}\` : undefined
          : SAMPLE_NOTE,
        icon: "gauge.with.dots.needle.67percent",
        state: highest >= 1 ? "failure" : highest >= WARN_FROM ? "warning" : "idle",
        meters: quotas.map(({ label, quota, unit }) => ({
          label,
          fraction: used(quota),
          value: number(quota.used, unit),
          resetsAt: quota.resetsAt,
        })),
      }),
    );
  },
});
`;

export const traffic: Template = {
  name: "traffic",
  description: "Quota use as meters: requests and bandwidth against their limits, with reset times",
  icon: "gauge.with.dots.needle.67percent",
  categories: ["developer"],
  interval: "5m",
  apiExample: "https://api.example.com/usage",
  apiShape: `{ "requests": { "used": 41500, "limit": 50000, "resetsAt": "2025-03-02T00:00:00Z" },
  "bandwidthGB": { "used": 312, "limit": 1000, "resetsAt": 1743465600 } }`,
  source,
};
