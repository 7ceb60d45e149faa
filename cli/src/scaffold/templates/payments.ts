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
};
