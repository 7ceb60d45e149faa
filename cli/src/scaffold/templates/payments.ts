/** `payments`: today's revenue as a currency figure with an hourly sparkline. */
import { COMMON_CODE } from "../snippets.js";
import type { Template } from "../template.js";

const source = `import { currency, defineExtension, number, percent, stat } from "@svc/api";

${COMMON_CODE}

/** What your payments API answers. Amounts are in major units (dollars, not cents). */
interface Revenue {
  currency: string;
  today: number;
  yesterday: number;
  /** Revenue per hour today, oldest first. */
  hourly: number[];
  payments: number;
  refunds: number;
  dashboardUrl?: string;
}

const SAMPLE: Revenue = {
  currency: "USD",
  today: 1284.5,
  yesterday: 1102.25,
  hourly: [40, 52, 38, 61, 90, 120, 98, 134, 160, 141, 175, 175.5],
  payments: 37,
  refunds: 2,
};

export default defineExtension<Prefs>({
  async update(ctx) {
    const url = ctx.preferences.apiUrl?.trim();
    const revenue = url ? await fetchJson<Revenue>(url, ctx.preferences.apiToken) : SAMPLE;
    await ctx.emit(
      stat("revenue", {
        title: titled("Revenue today", !url),
        subtitle: url ? undefined : SAMPLE_NOTE,
        icon: "dollarsign.circle",
        value: currency(revenue.today, revenue.currency),
        label: "since midnight",
        // Change against yesterday as a fraction: percent(0.12) shows +12 %.
        delta: percent(revenue.today - revenue.yesterday, revenue.yesterday),
        series: revenue.hourly,
        facts: [
          { label: "Payments", value: number(revenue.payments) },
          { label: "Refunds", value: number(revenue.refunds) },
        ],
        actions: revenue.dashboardUrl ? [{ id: "open", title: "Dashboard", url: revenue.dashboardUrl }] : undefined,
      }),
    );
  },
});
`;

export const payments: Template = {
  name: "payments",
  description: "Today's revenue with its change since yesterday and an hourly sparkline",
  icon: "dollarsign.circle",
  categories: ["finance"],
  interval: "15m",
  apiExample: "https://api.example.com/revenue/today",
  apiShape: `{ "currency": "USD", "today": 1284.5, "yesterday": 1102.25, "hourly": [40, 52, 38],
  "payments": 37, "refunds": 2, "dashboardUrl": "https://example.com/dashboard" }`,
  source,
  apiSample: {
    currency: "EUR",
    today: 2000,
    yesterday: 1600,
    hourly: [100, 250, 400, 350, 900],
    payments: 12,
    refunds: 1,
    dashboardUrl: "https://example.com/dashboard",
  },
  tests: `
test("today's revenue from the API, its change since yesterday and its sparkline", async (t) => {
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  const revenue = ext.blip("revenue");
  assert.equal(revenue?.title, "Revenue today");
  assert.deepEqual(revenue?.data, {
    value: { type: "currency", value: { amount: 2000, currency: "EUR" } },
    label: "since midnight",
    delta: { type: "percent", value: 0.25 },
    series: [100, 250, 400, 350, 900],
  });
  assert.deepEqual(revenue?.facts, [
    { label: "Payments", value: { type: "number", value: 12 } },
    { label: "Refunds", value: { type: "number", value: 1 } },
  ]);
  // The whole blip as the app receives it, kept in test/__snapshots__/revenue.json (emittedAt left out).
  await matchSnapshot("revenue", ext.blips);
});
`,
};
