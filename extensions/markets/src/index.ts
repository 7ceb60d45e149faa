/**
 * Markets: one blip per chosen pair, its price with the day's change. Crypto from Coinbase or
 * Kraken (the person picks), currencies from the ECB through Frankfurter (src/sources.ts).
 * A pair whose service failed shows the problem in its place; blips of pairs no longer chosen
 * are removed, so nothing old sits beside fresh prices.
 */
import {
  connectionBlip,
  currency,
  defineExtension,
  mayPass,
  number,
  percent,
  recovered,
  retryLater,
  stat,
  text,
  type Ctx,
  type Problem,
} from "@svc/api";
import { chosenPairs, MAX_PAIRS, type Pair } from "./pairs.js";
import { coinbase, frankfurter, kraken, type Answer, type Quote } from "./sources.js";

const SETUP = "setup";
const SHOWN = "shown";

const SIGNS: Record<string, string> = { EUR: "eurosign", USD: "dollarsign", GBP: "sterlingsign", JPY: "yensign" };

function iconOf(pair: Pair): string {
  if (pair.kind === "crypto") return pair.base === "BTC" ? "bitcoinsign.circle" : "chart.line.uptrend.xyaxis";
  return SIGNS[pair.base] ?? "banknote";
}

/** A price in its quote currency when that is a currency code, else a bare number with the code. */
function price(pair: Pair, amount: number) {
  if (pair.kind === "fx") return number(Number(amount.toFixed(4)));
  return /^[A-Z]{3}$/.test(pair.quote) && !["BTC", "ETH", "XBT"].includes(pair.quote)
    ? currency(amount, pair.quote)
    : number(amount, pair.quote);
}

const dayFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });

const titleOf = (pair: Pair) => (pair.kind === "fx" ? `${pair.base}/${pair.quote}` : `${pair.base}-${pair.quote}`);

function pairBlip(ctx: Ctx, pair: Pair, quote: Quote) {
  const change = quote.open === 0 ? 0 : quote.last / quote.open - 1;
  const exchange = ctx.preferences.exchange === "kraken" ? "Kraken" : "Coinbase";
  return stat(pair.key, {
    title: titleOf(pair),
    icon: iconOf(pair),
    value: price(pair, quote.last),
    delta: percent(Number(change.toFixed(6))),
    label:
      pair.kind === "fx"
        ? `ECB, ${dayFormat.format(Date.parse(`${quote.day}T00:00:00Z`))}`
        : exchange === "Kraken"
          ? "Kraken, since 00:00 UTC"
          : "Coinbase, 24h",
    url:
      pair.kind === "fx"
        ? "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html"
        : undefined,
    // Two intervals: after a sleep, old prices read as old until the next run.
    staleAfter: 10 * 60,
  });
}

/** Every chosen pair's answer: crypto one request each, currencies one per base currency. */
async function answers(ctx: Ctx, pairs: Pair[]): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  const source = ctx.preferences.exchange === "kraken" ? kraken : coinbase;
  for (const pair of pairs.filter((p) => p.kind === "crypto")) out.set(pair.key, await source(pair));
  const bases = new Map<string, Pair[]>();
  for (const pair of pairs.filter((p) => p.kind === "fx"))
    bases.set(pair.base, [...(bases.get(pair.base) ?? []), pair]);
  for (const [base, group] of bases) {
    const rates = await frankfurter(
      base,
      group.map((p) => p.quote),
    );
    for (const pair of group) out.set(pair.key, rates.get(pair.quote)!);
  }
  return out;
}

/** The line saying what to set, or what was not understood; removed when all is well. */
async function showSetup(ctx: Ctx, chosen: ReturnType<typeof chosenPairs>): Promise<void> {
  const problems = [
    chosen.unreadable.length > 0
      ? `Can't read ${chosen.unreadable.map((u) => `"${u}"`).join(", ")}: write BTC-USD or EUR/USD`
      : null,
    chosen.leftOut > 0 ? `Showing the first ${MAX_PAIRS}; ${chosen.leftOut} more left out` : null,
  ].filter((p): p is string => p !== null);
  if (chosen.pairs.length === 0) {
    await ctx.emit(
      stat(SETUP, {
        title: "Markets",
        icon: "chart.line.uptrend.xyaxis",
        state: problems.length > 0 ? "warning" : "idle",
        value: text("Nothing chosen"),
        label: problems[0] ?? "Add pairs like BTC-USD or EUR/USD in Settings",
      }),
    );
  } else if (problems.length > 0) {
    await ctx.emit(
      stat(SETUP, {
        title: "Markets",
        icon: "exclamationmark.triangle",
        state: "warning",
        value: text(problems[0]!),
        label: problems[1],
      }),
    );
  } else {
    await ctx.remove(SETUP);
  }
}

export default defineExtension({
  async update(ctx) {
    const chosen = chosenPairs(ctx.preferences.crypto, ctx.preferences.currencies);
    await showSetup(ctx, chosen);
    // Pairs no longer chosen leave the notch.
    const shown = (await ctx.storage.get<string[]>(SHOWN)) ?? [];
    const keys = chosen.pairs.map((p) => p.key);
    for (const key of shown.filter((k) => !keys.includes(k))) await ctx.remove(key);
    await ctx.storage.set(SHOWN, keys);
    if (chosen.pairs.length === 0) return;

    const failed: { pair: Pair; problem: Problem }[] = [];
    for (const [key, answer] of await answers(ctx, chosen.pairs)) {
      const pair = chosen.pairs.find((p) => p.key === key)!;
      if (answer.ok) await ctx.emit(pairBlip(ctx, pair, answer.quote));
      else failed.push({ pair, problem: answer.problem });
    }
    if (failed.length === 0) {
      await recovered(ctx.storage);
      return;
    }
    // The longest wait a service asked for decides when all are asked again.
    const worst = failed.reduce((a, b) => ((b.problem.retryAfter ?? 0) > (a.problem.retryAfter ?? 0) ? b : a));
    const plan = await retryLater(ctx.storage, worst.problem, { base: 30 });
    for (const { pair, problem } of failed) {
      const shown = mayPass(problem) ? { ...problem, retryAfter: plan.nextRunAfter } : problem;
      await ctx.emit(connectionBlip(pair.key, shown, { title: titleOf(pair) }));
    }
    return { nextRunAfter: plan.nextRunAfter };
  },
});
