/**
 * MET Norway's Locationforecast 2.0 `compact` answer, read into what the blip and the tool
 * show. Field names as documented at https://api.met.no/doc/ForecastJSON: `properties.timeseries[]`,
 * each `{ time, data: { instant: { details: { air_temperature … } }, next_1_hours?, next_6_hours? } }`,
 * a period's `summary.symbol_code` and `details.precipitation_amount` (mm). Pure: no fetch, no ctx.
 */

/** One period's summary, as MET sends it. */
interface Period {
  summary?: { symbol_code?: string };
  details?: { precipitation_amount?: number };
}

/** The part of the answer we read. */
export interface CompactForecast {
  properties?: {
    meta?: { updated_at?: string };
    timeseries?: {
      time: string;
      data?: {
        instant?: { details?: { air_temperature?: number; wind_speed?: number } };
        next_1_hours?: Period;
        next_6_hours?: Period;
      };
    }[];
  };
}

/** One moment of the forecast, kept in storage between runs (small: only what we show). */
export interface Point {
  /** Epoch ms. */
  at: number;
  /** °C. */
  temperature: number;
  wind?: number;
  /** The hour (or, further out, six hours) starting here. */
  symbol?: string;
  /** mm in that period. */
  rain?: number;
  /** 1 or 6: how long `symbol` and `rain` cover. */
  hours?: 1 | 6;
}

/** The moments with a temperature, oldest first; at most the first `max`. */
export function pointsOf(body: CompactForecast, max = 80): Point[] {
  const points: Point[] = [];
  for (const entry of body.properties?.timeseries ?? []) {
    const at = Date.parse(entry.time);
    const temperature = entry.data?.instant?.details?.air_temperature;
    if (!Number.isFinite(at) || typeof temperature !== "number") continue;
    const one = entry.data?.next_1_hours;
    const six = entry.data?.next_6_hours;
    const period = one ?? six;
    const point: Point = { at, temperature };
    const wind = entry.data?.instant?.details?.wind_speed;
    if (typeof wind === "number") point.wind = wind;
    if (period?.summary?.symbol_code) point.symbol = period.summary.symbol_code;
    if (typeof period?.details?.precipitation_amount === "number") point.rain = period.details.precipitation_amount;
    if (period) point.hours = one ? 1 : 6;
    points.push(point);
    if (points.length >= max) break;
  }
  return points.sort((a, b) => a.at - b.at);
}

/** What the blip shows. */
export interface Now {
  temperature: number;
  symbol?: string;
  /** mm of rain expected in the hour from now; undefined when the forecast has no hourly period. */
  rainNextHour?: number;
  /** Over the forecast's moments left today (the person's day): MET forecasts from this hour on. */
  high: number;
  low: number;
}

const HOUR = 3_600_000;

/**
 * The weather now: the moment covering `now` (the latest at or before it, else the first),
 * the rain in its hour, and the high and low of the moments still to come today, `now`
 * included. `undefined` when the forecast holds nothing for today.
 */
export function nowOf(points: readonly Point[], now: number): Now | undefined {
  if (points.length === 0) return undefined;
  const current = points.filter((p) => p.at <= now && now < p.at + HOUR).at(-1) ?? points[0]!;
  const today = new Date(now).toDateString();
  const rest = points.filter((p) => p.at >= current.at && new Date(p.at).toDateString() === today);
  if (rest.length === 0) return undefined;
  const temperatures = rest.map((p) => p.temperature);
  return {
    temperature: current.temperature,
    symbol: current.symbol,
    rainNextHour: current.hours === 1 ? (current.rain ?? 0) : undefined,
    high: Math.max(...temperatures),
    low: Math.min(...temperatures),
  };
}

/** One row a day for the days ahead: the day's high, low and the wettest period's symbol. */
export interface Day {
  /** Epoch ms of the day's first moment. */
  at: number;
  high: number;
  low: number;
  rain: number;
  symbol?: string;
}

/** The forecast's days, in the person's calendar, today first. */
export function daysOf(points: readonly Point[]): Day[] {
  const days = new Map<string, Point[]>();
  for (const point of points) {
    const key = new Date(point.at).toDateString();
    days.set(key, [...(days.get(key) ?? []), point]);
  }
  return [...days.values()].map((moments) => {
    const temperatures = moments.map((p) => p.temperature);
    // Rain adds up without counting an hour twice: hourly periods, then six-hour ones not covered.
    let coveredUntil = 0;
    let rain = 0;
    for (const p of moments) {
      if (p.rain === undefined || p.at < coveredUntil) continue;
      rain += p.rain;
      coveredUntil = p.at + (p.hours ?? 1) * HOUR;
    }
    const midday = moments.find((p) => new Date(p.at).getHours() >= 12 && p.symbol) ?? moments.find((p) => p.symbol);
    return {
      at: moments[0]!.at,
      high: Math.max(...temperatures),
      low: Math.min(...temperatures),
      rain: Math.round(rain * 10) / 10,
      symbol: midday?.symbol,
    };
  });
}
