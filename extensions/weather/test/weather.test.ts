/**
 * Weather with @svc/testkit: MET Norway's answers replayed from recordings written by hand from
 * MET's documented format (each file's `source`), on a clock that starts at 09:20 UTC on
 * 10 June 2025, the guest's zone UTC.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, type LoadOptions } from "@svc/testkit";
import { requestHeaders, USER_AGENT, forecastUrl } from "../src/met.js";
import { conditionOf, iconOf } from "../src/symbols.js";

const OSLO = { latitude: 59.9139, longitude: 10.7522, place: "Oslo" };
const NOW = "2025-06-10T09:20:00Z";

async function weather(t: { after(fn: () => Promise<void>): void }, options: LoadOptions) {
  const ext = await loadExtension(".", { now: NOW, ...options });
  t.after(() => ext.dispose());
  return ext;
}

test("now, today's high and low, and the rain in the next hour, titled with the place", async (t) => {
  const ext = await weather(t, { preferences: OSLO, recording: "test/recordings/oslo.json" });
  await ext.run("launch");
  const now = ext.blip("now");
  assert.equal(now?.title, "Oslo");
  assert.equal(now?.layout, "stat");
  assert.equal(now?.icon, "cloud.sun");
  assert.equal(now?.state, "idle");
  assert.deepEqual(now?.data, { value: { type: "number", value: 14.1, unit: "°C" }, label: "Partly cloudy" });
  assert.equal(now?.subtitle, "H 20° L 11° · dry next hour");
  assert.deepEqual(now?.facts, [
    { label: "High", value: { type: "number", value: 19.8, unit: "°C" } },
    { label: "Low", value: { type: "number", value: 11.2, unit: "°C" } },
    { label: "Rain next hour", value: { type: "number", value: 0, unit: "mm" } },
  ]);
  assert.equal(now?.staleAfter, "2025-06-10T10:00:00.000Z"); // Expires 09:50, plus 10 minutes
  assert.deepEqual(ext.denials, []);
});

test("an hour later the light shower is the next hour's rain, and the blip says so", async (t) => {
  const ext = await weather(t, {
    now: "2025-06-10T10:05:00Z",
    preferences: { ...OSLO, unit: "fahrenheit" },
    recording: "test/recordings/oslo.json",
  });
  await ext.run();
  const now = ext.blip("now");
  assert.equal(now?.state, "warning");
  assert.equal(now?.icon, "cloud.sun.rain");
  assert.deepEqual(now?.data, { value: { type: "number", value: 59, unit: "°F" }, label: "Light rain showers" });
  assert.equal(now?.subtitle, "H 68° L 52° · 0.4 mm rain next hour");
});

test("honours Expires: no request before it, If-Modified-Since after it, a 304 keeps the forecast", async (t) => {
  // Answers in order: 200 (expires 09:50), 304 (expires 10:50), 200 with a newer forecast.
  const ext = await weather(t, { preferences: OSLO, recording: "test/recordings/oslo-expires.json" });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 30 * 60 });
  assert.equal(ext.nextRunAt, Date.parse("2025-06-10T09:50:00Z"));
  // A run asked for before then uses what it holds: asking would take the 304 out of turn.
  await ext.clock.advanceTo("2025-06-10T09:40:00Z");
  await ext.run("manual");
  await ext.clock.advanceTo("2025-06-10T09:50:00Z"); // the schedule's run: the 304
  assert.deepEqual((ext.blip("now")?.data as { value: unknown }).value, { type: "number", value: 14.1, unit: "°C" });
  assert.equal(ext.nextRunAt, Date.parse("2025-06-10T10:50:00Z"));
  await ext.clock.advanceTo("2025-06-10T10:50:00Z"); // the newer forecast
  assert.deepEqual((ext.blip("now")?.data as { value: unknown }).value, { type: "number", value: 15.6, unit: "°C" });
});

test("rate limited: says so, and waits the Retry-After before asking again", async (t) => {
  const ext = await weather(t, { preferences: OSLO, recording: "test/recordings/oslo-throttled.json" });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 600 });
  const limited = ext.blip("now");
  assert.equal(limited?.state, "warning");
  assert.deepEqual(limited?.data, { value: { type: "text", value: "Rate limited" }, label: "Trying again in 10m" });
  assert.equal(ext.nextRunAt, Date.parse(NOW) + 600_000);
  await ext.clock.advance("10m");
  assert.equal(ext.blip("now")?.title, "Oslo");
  assert.deepEqual((ext.blip("now")?.data as { value: unknown }).value, { type: "number", value: 14.1, unit: "°C" });
});

test("offline: a no-connection blip, then it backs off and recovers", async (t) => {
  const ext = await weather(t, { preferences: OSLO, recording: "test/recordings/oslo-offline.json" });
  const result = await ext.run("launch");
  const offline = ext.blip("now");
  assert.equal(offline?.icon, "wifi.slash");
  assert.equal(offline?.state, "warning");
  assert.equal((offline?.data as { value: { value: string } }).value.value, "No connection");
  // backoff(0) is 5–10 s.
  assert.ok(
    result?.nextRunAfter !== undefined && result.nextRunAfter >= 5 && result.nextRunAfter <= 10,
    String(result?.nextRunAfter),
  );
  await ext.clock.advance("10s");
  assert.equal(ext.blip("now")?.state, "idle");
  assert.equal(await ext.storage.get("svc.failures"), undefined);
});

test("no place set: one blip that says what to set, and nothing fetched", async (t) => {
  const ext = await weather(t, { recording: "test/recordings/oslo.json" });
  await ext.run("launch");
  assert.equal(ext.blips.length, 1);
  assert.equal(ext.blip("now")?.title, "Weather");
  assert.deepEqual(ext.blip("now")?.data, {
    value: { type: "text", value: "No place set" },
    label: "Set latitude and longitude in Settings",
  });
});

test("a latitude past 90 is named, with its range", async (t) => {
  const ext = await weather(t, { preferences: { latitude: 91, longitude: 10 } });
  await ext.run();
  assert.equal((ext.blip("now")?.data as { label: string }).label, "Latitude 91 is not between -90 and 90");
});

test("the Forecast tool: the next hours, and the days with their rain", async (t) => {
  const ext = await weather(t, { preferences: OSLO, recording: "test/recordings/oslo.json" });
  const hours = await ext.tool("forecast", { action: "show", values: { range: "hours" } });
  const rows = (hours[0] as { rows: { name: string; value: string }[] }).rows;
  assert.equal(rows.length, 12);
  assert.deepEqual(rows[0], { name: "9:00 AM", value: "14° · Partly cloudy" });
  assert.deepEqual(rows[1], { name: "10:00 AM", value: "15° · Light rain showers · 0.4 mm" });
  const days = await ext.tool("forecast", { action: "show", values: { range: "days" } });
  assert.deepEqual((days[0] as { rows: unknown[] }).rows, [
    { name: "Tuesday", value: "11° – 20° · Fair · 1.6 mm" },
    { name: "Wednesday", value: "10° – 15° · Partly cloudy · 4.3 mm" },
  ]);
  assert.deepEqual(days[1], { type: "text", value: "Data from MET Norway" });
});

test("asks as MET's terms say: who we are, the person's contact, 4 decimals, If-Modified-Since", () => {
  assert.deepEqual(requestHeaders(" ann@example.com ", "Tue, 10 Jun 2025 09:05:00 GMT"), {
    "User-Agent": `${USER_AGENT} ann@example.com`,
    Accept: "application/json",
    "If-Modified-Since": "Tue, 10 Jun 2025 09:05:00 GMT",
  });
  assert.deepEqual(requestHeaders(null, undefined), { "User-Agent": USER_AGENT, Accept: "application/json" });
  assert.equal(
    forecastUrl({ latitude: 59.913868, longitude: 10.752245 }),
    "https://api.met.no/weatherapi/locationforecast/2.0/compact?lat=59.9139&lon=10.7522",
  );
});

test("symbol codes read as words and icons, MET's misspelt ones included", () => {
  assert.equal(conditionOf("heavyrainshowersandthunder_night"), "Heavy rain showers and thunder");
  assert.equal(conditionOf("lightssleetshowersandthunder_day"), "Light sleet showers and thunder");
  assert.equal(iconOf("clearsky_night"), "moon.stars");
  assert.equal(iconOf("snow"), "cloud.snow");
  assert.equal(iconOf(undefined), "thermometer.medium");
});
