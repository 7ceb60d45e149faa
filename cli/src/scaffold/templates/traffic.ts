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
  apiSample: {
    requests: { used: 45000, limit: 50000, resetsAt: "2025-01-06T12:00:00Z" },
    bandwidthGB: { used: 100, limit: 1000, resetsAt: 1738368000 },
  },
  tests: `
test("quotas from the API as meters, orange from 80 % used", async (t) => {
  // The clock starts at 2025-01-06T09:00:00Z unless a test says otherwise.
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  const traffic = ext.blip("traffic");
  assert.equal(traffic?.state, "warning");
  assert.equal(traffic?.subtitle, "Requests resets in 3h");
  assert.deepEqual(traffic?.data, {
    meters: [
      { label: "Requests", fraction: 0.9, value: { type: "number", value: 45000, unit: "req" }, resetsAt: "2025-01-06T12:00:00.000Z" },
      { label: "Bandwidth", fraction: 0.1, value: { type: "number", value: 100, unit: "GB" }, resetsAt: "2025-02-01T00:00:00.000Z" },
    ],
  });
});

test("the reset reads closer as the clock moves (a run every 5 minutes)", async (t) => {
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  await ext.clock.advance("2h");
  assert.equal(ext.blip("traffic")?.subtitle, "Requests resets in 1h");
});
`,
};
