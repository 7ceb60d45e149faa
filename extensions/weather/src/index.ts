/**
 * Weather: the temperature now, today's high and low and the rain in the next hour at the place
 * the person set, from MET Norway's Locationforecast (src/met.ts: how we ask, as their terms
 * say), and a Forecast tool for the hours and days ahead. The last forecast is kept in storage,
 * so a run before it expires asks nothing and a 304 keeps what we have.
 */
import {
  connectionBlip,
  defineExtension,
  joinLine,
  number,
  probe,
  problemOf,
  recovered,
  retryLater,
  stat,
  status,
  table,
  text,
  tool,
  type Ctx,
  type Problem,
} from "@svc/api";
import { daysOf, nowOf, pointsOf, type CompactForecast, type Point } from "./forecast.js";
import { expiresOf, forecastUrl, locationOf, requestHeaders, type Location } from "./met.js";
import { conditionOf, iconOf } from "./symbols.js";

const KEY = "now";
/** The forecast we hold: for which place, until when, and its Last-Modified. */
interface Held {
  url: string;
  expires: number;
  lastModified?: string;
  points: Point[];
}
const HELD = "forecast";
/** Without an Expires, ask again after the manifest's interval. */
const DEFAULT_LIFE_MS = 10 * 60_000;

function title(ctx: Ctx): string {
  const place = ctx.preferences.place;
  return typeof place === "string" && place.trim() ? place.trim() : "Weather";
}

/** Degrees in the person's unit, rounded to one decimal. */
function degrees(ctx: Ctx, celsius: number) {
  const fahrenheit = ctx.preferences.unit === "fahrenheit";
  const value = fahrenheit ? (celsius * 9) / 5 + 32 : celsius;
  return number(Math.round(value * 10) / 10, fahrenheit ? "°F" : "°C");
}

const short = (ctx: Ctx, celsius: number) =>
  `${Math.round(ctx.preferences.unit === "fahrenheit" ? (celsius * 9) / 5 + 32 : celsius)}°`;

function rainWords(mm: number | undefined): string {
  if (mm === undefined) return "no hourly forecast";
  return mm === 0 ? "dry next hour" : `${mm} mm rain next hour`;
}

/**
 * The forecast for `location`: the one held while it has not expired, else MET's answer (a 304
 * keeps the held one with the new expiry). A problem when MET could not be asked or refused.
 */
async function forecast(ctx: Ctx, location: Location): Promise<{ held: Held } | { problem: Problem }> {
  const url = forecastUrl(location);
  const now = Date.now();
  const stored = await ctx.storage.get<Held>(HELD);
  const held = stored?.url === url ? stored : undefined;
  if (held && now < held.expires) return { held };
  const asked = await probe(
    fetch(url, { headers: requestHeaders(ctx.preferences.contact, held?.lastModified) }).then((response) => ({
      response,
    })),
  );
  if (!asked.ok) return { problem: asked.problem };
  const { response } = asked.value;
  const expires = expiresOf(response.headers, now + DEFAULT_LIFE_MS);
  let next: Held;
  if (response.status === 304 && held) {
    next = { ...held, expires };
  } else if (response.ok) {
    const points = pointsOf((await response.json()) as CompactForecast);
    next = { url, expires, lastModified: response.headers.get("last-modified") ?? undefined, points };
  } else {
    return { problem: problemOf(response.status, response.headers) };
  }
  await ctx.storage.set(HELD, next);
  return { held: next };
}

async function show(ctx: Ctx, held: Held): Promise<void> {
  const now = nowOf(held.points, Date.now());
  if (!now) {
    await ctx.emit(
      stat(KEY, {
        title: title(ctx),
        icon: "cloud",
        state: "warning",
        value: text("No forecast"),
        label: "MET sent nothing for today",
      }),
    );
    return;
  }
  const rainy = (now.rainNextHour ?? 0) > 0;
  await ctx.emit(
    stat(KEY, {
      title: title(ctx),
      icon: iconOf(now.symbol),
      state: rainy ? "warning" : "idle",
      value: degrees(ctx, now.temperature),
      label: conditionOf(now.symbol) || undefined,
      subtitle: joinLine([`H ${short(ctx, now.high)} L ${short(ctx, now.low)}`, rainWords(now.rainNextHour)]),
      facts: [
        { label: "High", value: degrees(ctx, now.high) },
        { label: "Low", value: degrees(ctx, now.low) },
        { label: "Rain next hour", value: now.rainNextHour === undefined ? "—" : number(now.rainNextHour, "mm") },
      ],
      url: "https://www.yr.no",
      // Old ten minutes after the forecast expires (when the next run asks again): after a sleep
      // the figures read as old until that run.
      staleAfter: held.expires + 10 * 60_000,
    }),
  );
}

export default defineExtension({
  async update(ctx) {
    const location = locationOf(ctx.preferences);
    if (typeof location === "string") {
      await ctx.storage.delete(HELD);
      await ctx.emit(
        stat(KEY, { title: "Weather", icon: "location", state: "idle", value: text("No place set"), label: location }),
      );
      return;
    }
    const got = await forecast(ctx, location);
    if ("problem" in got) {
      const plan = await retryLater(ctx.storage, got.problem);
      await ctx.emit(connectionBlip(KEY, plan.problem, { title: title(ctx) }));
      return { nextRunAfter: plan.nextRunAfter };
    }
    await recovered(ctx.storage);
    await show(ctx, got.held);
    // Not before the forecast expires, and at least the interval's pace when it expires sooner.
    return { nextRunAfter: Math.max(60, Math.ceil((got.held.expires - Date.now()) / 1000)) };
  },

  tools: {
    forecast: tool({
      id: "forecast",
      title: "Forecast",
      icon: "cloud.sun",
      summary: "The hours and days ahead at your place, from MET Norway.",
      fields: [
        {
          id: "range",
          type: "choice",
          label: "Show",
          options: [
            { id: "hours", title: "Next 12 hours" },
            { id: "days", title: "Next days" },
          ],
        },
      ],
      actions: [{ id: "show", title: "Show", role: "primary" }],
      async run(_action, values, ctx) {
        const location = locationOf(ctx.preferences);
        if (typeof location === "string") return [status(location, "warning")];
        const got = await forecast(ctx, location);
        if ("problem" in got) return [status(`MET Norway: ${got.problem.message}`, "critical")];
        const points = got.held.points;
        if (values.range === "days") {
          const days = daysOf(points);
          const weekday = new Intl.DateTimeFormat(undefined, { weekday: "long" });
          return [
            table(
              days.map((day) => ({
                name: weekday.format(day.at),
                value: joinLine([
                  `${short(ctx, day.low)} – ${short(ctx, day.high)}`,
                  conditionOf(day.symbol),
                  day.rain > 0 ? `${day.rain} mm` : null,
                ]),
              })),
            ),
            text("Data from MET Norway"),
          ];
        }
        const hour = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
        const ahead = points.filter((p) => p.at + 3_600_000 > Date.now()).slice(0, 12);
        return [
          table(
            ahead.map((p) => ({
              name: hour.format(p.at),
              value: joinLine([short(ctx, p.temperature), conditionOf(p.symbol), p.rain ? `${p.rain} mm` : null]),
            })),
          ),
          text("Data from MET Norway"),
        ];
      },
    }),
  },
});
