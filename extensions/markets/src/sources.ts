/**
 * The three services, each read into `{ last, open }`: the price now and the price the day's
 * change is measured from. Field names as each documents them (see test/recordings' `source`):
 *
 * - Coinbase Exchange `GET /products/{id}/stats`: `open`, `high`, `low`, `last`, `volume`
 *   (strings; a rolling 24 hours);
 * - Kraken `GET /0/public/Ticker?pair=`: `{ error: [], result: { <pair>: { c: [last, lot], o: open } } }`
 *   (today from midnight UTC);
 * - Frankfurter `GET /v1/latest?base=&symbols=`: `{ amount, base, date, rates: { <code>: n } }`, and
 *   `GET /v1/{start}..{end}`: `{ amount, base, start_date, end_date, rates: { <date>: { <code>: n } } }`
 *   (the ECB's working days; the change is from the working day before the latest).
 */
import { probe, type Problem } from "@svc/api";
import type { Pair } from "./pairs.js";

export interface Quote {
  last: number;
  open: number;
  /** For currencies: the ECB day the rate is from (YYYY-MM-DD). */
  day?: string;
}

export type Answer = { ok: true; quote: Quote } | { ok: false; problem: Problem };

const failed = (message: string): Answer => ({ ok: false, problem: { kind: "failed", message } });

async function json(url: string): Promise<{ ok: true; body: unknown } | { ok: false; problem: Problem }> {
  const res = await probe(fetch(url, { headers: { Accept: "application/json" } }));
  if (!res.ok) return res;
  return { ok: true, body: await res.value.json() };
}

const numeric = (value: unknown) => (typeof value === "string" || typeof value === "number" ? Number(value) : NaN);

export async function coinbase(pair: Pair): Promise<Answer> {
  const got = await json(`https://api.exchange.coinbase.com/products/${pair.base}-${pair.quote}/stats`);
  if (!got.ok) return got;
  const body = got.body as { last?: string; open?: string };
  const quote = { last: numeric(body.last), open: numeric(body.open) };
  return Number.isFinite(quote.last) && Number.isFinite(quote.open)
    ? { ok: true, quote }
    : failed("No price in the answer");
}

/** Kraken calls bitcoin XBT. */
const krakenAsset = (code: string) => (code === "BTC" ? "XBT" : code);

export async function kraken(pair: Pair): Promise<Answer> {
  const name = `${krakenAsset(pair.base)}${krakenAsset(pair.quote)}`;
  const got = await json(`https://api.kraken.com/0/public/Ticker?pair=${name}`);
  if (!got.ok) return got;
  const body = got.body as { error?: string[]; result?: Record<string, { c?: string[]; o?: string }> };
  const error = body.error?.[0];
  // Kraken answers 200 with its error words: "EQuery:Unknown asset pair", "EAPI:Rate limit exceeded".
  if (error) {
    const limited = /rate limit|too many requests/i.test(error);
    return { ok: false, problem: { kind: limited ? "rate-limited" : "failed", message: error } };
  }
  const ticker = Object.values(body.result ?? {})[0];
  const quote = { last: numeric(ticker?.c?.[0]), open: numeric(ticker?.o) };
  return Number.isFinite(quote.last) && Number.isFinite(quote.open)
    ? { ok: true, quote }
    : failed("No price in the answer");
}

/** The day before `day` (YYYY-MM-DD), `days` back. */
function dayBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The rates of one base currency against each of `quotes`: the latest working day's, and the
 * change from the working day before it. Two requests per base: the latest rates, then the week
 * before their day (the day comes from the answer, not our clock, so weekends and holidays need
 * no calendar of ours).
 */
export async function frankfurter(base: string, quotes: string[]): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  const symbols = `base=${base}&symbols=${quotes.join(",")}`;
  const latest = await json(`https://api.frankfurter.dev/v1/latest?${symbols}`);
  const day = latest.ok ? (latest.body as { date?: unknown }).date : undefined;
  const earlier =
    typeof day === "string" && /^\d{4}-\d{2}-\d{2}$/.test(day)
      ? await json(`https://api.frankfurter.dev/v1/${dayBefore(day, 7)}..${dayBefore(day, 1)}?${symbols}`)
      : undefined;
  for (const quote of quotes) {
    if (!latest.ok) answers.set(quote, latest);
    else if (!earlier) answers.set(quote, failed("No date in the ECB's answer"));
    else if (!earlier.ok) answers.set(quote, earlier);
    else answers.set(quote, rateOf(latest.body, earlier.body, base, quote, day as string));
  }
  return answers;
}

type Rates = Record<string, number>;

function rateOf(latest: unknown, earlier: unknown, base: string, quote: string, day: string): Answer {
  const last = (latest as { rates?: Rates }).rates?.[quote];
  const byDay = (earlier as { rates?: Record<string, Rates> }).rates ?? {};
  const before = Object.keys(byDay)
    .sort()
    .map((d) => byDay[d]?.[quote])
    .filter((r): r is number => typeof r === "number")
    .at(-1);
  if (typeof last !== "number") return failed(`No ECB rate for ${base}/${quote}`);
  return { ok: true, quote: { last, open: before ?? last, day } };
}
