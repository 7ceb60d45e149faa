/**
 * Markets with @svc/testkit: Coinbase, Kraken and Frankfurter answers replayed from recordings
 * written by hand from each service's documented responses (each file's `source`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, type LoadOptions } from "@svc/testkit";
import { chosenPairs, MAX_PAIRS } from "../src/pairs.js";

const NOW = "2025-06-10T09:20:00Z";

async function markets(t: { after(fn: () => Promise<void>): void }, options: LoadOptions) {
  const ext = await loadExtension(".", { now: NOW, ...options });
  t.after(() => ext.dispose());
  return ext;
}

const valueOf = (ext: Awaited<ReturnType<typeof markets>>, key: string) =>
  (ext.blip(key)?.data as { value?: unknown }).value;

test("the default pairs: bitcoin in dollars over 24h, the euro in dollars since the ECB's day before", async (t) => {
  const ext = await markets(t, { recording: "test/recordings/coinbase-ecb.json" });
  await ext.run("launch");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.markets/crypto-BTC-USD", "app.svc.markets/fx-EUR-USD"],
  );
  const btc = ext.blip("crypto-BTC-USD");
  assert.equal(btc?.title, "BTC-USD");
  assert.equal(btc?.icon, "bitcoinsign.circle");
  assert.deepEqual(btc?.data, {
    value: { type: "currency", value: { amount: 105882.45, currency: "USD" } },
    delta: { type: "percent", value: 0.013035 },
    label: "Coinbase, 24h",
  });
  assert.equal(btc?.staleAfter, "2025-06-10T09:30:00.000Z");
  const eur = ext.blip("fx-EUR-USD");
  assert.equal(eur?.title, "EUR/USD");
  assert.equal(eur?.icon, "eurosign");
  // 1.1419 on 9 June against 1.1398 on Friday 6 June.
  assert.deepEqual(eur?.data, {
    value: { type: "number", value: 1.1419 },
    delta: { type: "percent", value: 0.001842 },
    label: "ECB, Jun 9",
  });
  assert.deepEqual(ext.denials, []);
});

test("Kraken: today's change from its open; an unknown pair and Kraken's rate limit shown in their place", async (t) => {
  const ext = await markets(t, {
    preferences: { exchange: "kraken", crypto: "BTC-USD doge-xyz, ETH-EUR", currencies: "" },
    recording: "test/recordings/kraken.json",
  });
  const result = await ext.run();
  assert.deepEqual(ext.blip("crypto-BTC-USD")?.data, {
    value: { type: "currency", value: { amount: 30303.2, currency: "USD" } },
    delta: { type: "percent", value: -0.006544 },
    label: "Kraken, since 00:00 UTC",
  });
  assert.equal(ext.blip("crypto-DOGE-XYZ")?.state, "failure");
  assert.deepEqual(valueOf(ext, "crypto-DOGE-XYZ"), { type: "text", value: "EQuery:Unknown asset pair" });
  assert.equal(ext.blip("crypto-ETH-EUR")?.state, "warning");
  assert.deepEqual(valueOf(ext, "crypto-ETH-EUR"), { type: "text", value: "EAPI:Rate limit exceeded" });
  // No Retry-After from Kraken: it backs off from 30 s (15–30 s the first time).
  assert.ok(result.nextRunAfter! >= 15 && result.nextRunAfter! <= 30, String(result.nextRunAfter));
});

test("rate limited by Coinbase: backs off, doubling, and recovers", async (t) => {
  const ext = await markets(t, { recording: "test/recordings/coinbase-throttled.json" });
  const first = await ext.run("launch");
  // No Retry-After from Coinbase: the backoff's wait, said on the blip.
  assert.deepEqual(ext.blip("crypto-BTC-USD")?.data, {
    value: { type: "text", value: "Rate limited" },
    label: `Trying again in ${first.nextRunAfter}s`,
  });
  assert.equal(ext.blip("crypto-BTC-USD")?.state, "warning");
  assert.ok(first.nextRunAfter! >= 15 && first.nextRunAfter! <= 30, String(first.nextRunAfter));
  assert.equal(ext.nextRunAt, ext.clock.now() + first.nextRunAfter! * 1000);
  const second = await ext.run();
  assert.ok(second.nextRunAfter! >= 30 && second.nextRunAfter! <= 60, String(second.nextRunAfter));
  assert.equal(await ext.storage.get("svc.failures"), 2);
  assert.deepEqual(await ext.run(), {});
  assert.equal(await ext.storage.get("svc.failures"), undefined);
  assert.equal((valueOf(ext, "crypto-BTC-USD") as { type: string }).type, "currency");
});

test("offline: the rate's blip says No connection instead of an old figure", async (t) => {
  const ext = await markets(t, { preferences: { crypto: "" }, recording: "test/recordings/ecb-offline.json" });
  const { nextRunAfter } = await ext.run();
  const eur = ext.blip("fx-EUR-USD");
  assert.equal(eur?.icon, "wifi.slash");
  assert.deepEqual(eur?.data, {
    value: { type: "text", value: "No connection" },
    label: `Trying again in ${nextRunAfter}s`,
  });
});

test("nothing chosen: one blip that says what to set, and nothing fetched", async (t) => {
  const ext = await markets(t, { preferences: { crypto: "", currencies: " " } });
  await ext.run();
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.markets/setup"],
  );
  assert.deepEqual(ext.blip("setup")?.data, {
    value: { type: "text", value: "Nothing chosen" },
    label: "Add pairs like BTC-USD or EUR/USD in Settings",
  });
});

test("a pair it cannot read is named, with how to write one", async (t) => {
  const ext = await markets(t, { preferences: { crypto: "BTCUSD", currencies: "" } });
  await ext.run();
  assert.equal(ext.blip("setup")?.state, "warning");
  assert.deepEqual(ext.blip("setup")?.data, {
    value: { type: "text", value: "Nothing chosen" },
    label: 'Can\'t read "BTCUSD": write BTC-USD or EUR/USD',
  });
});

test("a pair no longer chosen leaves the notch, and the setup line goes once all is read", async (t) => {
  const ext = await markets(t, { preferences: { crypto: "BTC-USD" }, recording: "test/recordings/coinbase-ecb.json" });
  await ext.run("launch");
  assert.equal(ext.blips.length, 2);
  await ext.setPreference("currencies", "");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.markets/crypto-BTC-USD"],
  );
});

test(`at most ${MAX_PAIRS} pairs: ${MAX_PAIRS} are all kept, one more is left out and counted`, () => {
  const coins = ["BTC", "ETH", "SOL", "ADA", "DOT", "XRP", "LTC", "BCH", "AVAX"];
  const atLimit = chosenPairs(
    coins
      .slice(0, MAX_PAIRS)
      .map((c) => `${c}-USD`)
      .join(","),
    "",
  );
  assert.deepEqual([atLimit.pairs.length, atLimit.leftOut], [MAX_PAIRS, 0]);
  const past = chosenPairs(coins.map((c) => `${c}-USD`).join(","), "");
  assert.deepEqual([past.pairs.length, past.leftOut, past.pairs.at(-1)?.key], [MAX_PAIRS, 1, "crypto-BCH-USD"]);
  // Repeats count once; currencies take a slash or a dash.
  assert.deepEqual(
    chosenPairs("btc-usd BTC-USD", "eur-usd").pairs.map((p) => p.key),
    ["crypto-BTC-USD", "fx-EUR-USD"],
  );
});
