/**
 * The guest's local time zone. QuickJS-ng asks C's `localtime_r` for every local-time figure,
 * and Emscripten answers it (and `tzset`) with two JavaScript imports that read the host
 * thread's `Date`, i.e. the process's zone: V8 has one zone per process, so a worker's `TZ` does
 * not change it. To give guests another zone (the runtime's `initialize.timeZone`), the two
 * imports are replaced, per instance, by versions that compute the same figures in that IANA
 * zone with `Intl`.
 */

const MINUTE = 60_000;
const CUMULATIVE_DAYS = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/**
 * Checks an IANA zone name and returns the form `Intl` uses (`"asia/tokyo"` → `"Asia/Tokyo"`).
 *
 * @example checkTimeZone("Europe/London") // "Europe/London"
 */
export function checkTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw new RangeError(
      `timeZone "${name}" is not an IANA time zone this Node knows, such as "Europe/London" or "UTC"`,
    );
  }
}

/**
 * The zone guests get for `name`: undefined when it is the process's own zone, so their instances
 * keep Emscripten's clock functions, which read the host's `Date` and are already in that zone.
 * That is the app's usual case (svc-host passes the zone it runs in), and it spares each sandbox
 * thread a second spare instance and `Intl` for every local-time figure. Throws as `checkTimeZone`.
 *
 * @example guestTimeZone("Europe/Oslo") // "Europe/Oslo", or undefined in a process running in Oslo
 */
export function guestTimeZone(name: string): string | undefined {
  const zone = checkTimeZone(name);
  return zone === new Intl.DateTimeFormat().resolvedOptions().timeZone ? undefined : zone;
}

/** Quarter hours: a zone's offset changes at most once in one (in practice never inside one). */
const BUCKET_MS = 15 * 60_000;
/** The largest time value ECMAScript has, either side of 1970. */
const MAX_TIME = 8.64e15;
/** 400 Gregorian years (146,097 days, a whole number of weeks). */
const CYCLE_MS = 146_097 * 86_400_000;
const MAX_BUCKETS = 4096;

/**
 * Minutes east of UTC in one zone at an instant. Cached by quarter hour when the offset is the
 * same at both its ends (QuickJS asks for the same instants again and again: every getter,
 * and the prelude's local-time conversion, asks a few times), since formatToParts is slow.
 */
function offsetFinder(timeZone: string): (ms: number) => number {
  const exact = exactOffsetFinder(timeZone);
  const buckets = new Map<number, number>();
  return function offsetAt(instant) {
    // QuickJS asks about the edges of the range too (a year's first day past -8.64e15, a local
    // time an offset beyond it), where Intl refuses to format: the nearest instant it has answers
    const ms = instant > MAX_TIME ? MAX_TIME : instant < -MAX_TIME ? -MAX_TIME : instant === instant ? instant : 0;
    const bucket = Math.floor(ms / BUCKET_MS);
    const known = buckets.get(bucket);
    if (known !== undefined) return known;
    // a bucket's ends may lie past ECMAScript's range (±8.64e15 ms), where Intl refuses to format
    const start = exact(Math.max(bucket * BUCKET_MS, -MAX_TIME));
    if (start !== exact(Math.min(bucket * BUCKET_MS + BUCKET_MS - 1000, MAX_TIME))) return exact(ms);
    if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    buckets.set(bucket, start);
    return start;
  };
}

function exactOffsetFinder(timeZone: string): (ms: number) => number {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    era: "short",
  });
  return function offsetAt(ms) {
    const part: Record<string, number> = {};
    let bc = false;
    for (const { type, value } of format.formatToParts(ms)) {
      if (type === "era") bc = value === "BC";
      else if (type !== "literal") part[type] = Number(value);
    }
    // the wall clock read 400 years nearer 1970 (the same calendar), since at the range's edges
    // it may lie past ±8.64e15, where a Date is NaN
    const year = bc ? 1 - part.year : part.year;
    const cycles = year < 0 ? 1 : -1;
    const wall = new Date(0);
    wall.setUTCFullYear(year + cycles * 400, part.month - 1, part.day);
    wall.setUTCHours(part.hour, part.minute, part.second, 0);
    return Math.round((wall.getTime() - cycles * CYCLE_MS - Math.floor(ms / 1000) * 1000) / MINUTE);
  };
}

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Writes a NUL-terminated ASCII string (at most `max` bytes with the NUL) into linear memory. */
function writeAscii(memory: WebAssembly.Memory, at: number, text: string, max: number): void {
  const bytes = new Uint8Array(memory.buffer, at, max);
  const n = Math.min(text.length, max - 1);
  for (let i = 0; i < n; i++) bytes[i] = text.charCodeAt(i) & 0x7f;
  bytes[n] = 0;
}

/** `UTC+0900` style name of an offset in minutes east, as Emscripten names zones. */
function zoneLabel(east: number): string {
  const abs = Math.abs(east);
  return `UTC${east >= 0 ? "+" : "-"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/**
 * Replaces the `localtime` and `tzset` imports of an Emscripten import object with versions
 * for `timeZone`. They are found by what they do (the build minifies their names); if this
 * build's glue changed shape, it says so instead of silently using the host's zone.
 *
 * @example zoneImports(imports, memory, "Asia/Tokyo"); await WebAssembly.instantiate(module, imports);
 */
export function zoneImports(imports: WebAssembly.Imports, memory: WebAssembly.Memory, timeZone: string): void {
  const env = Object.values(imports)[0] as Record<string, unknown>;
  const find = (test: (source: string) => boolean) =>
    Object.keys(env).filter((key) => typeof env[key] === "function" && test(String(env[key])));
  const localtime = find((s) => s.includes("getTimezoneOffset") && s.includes("getHours"));
  const tzset = find((s) => s.includes("getTimezoneOffset") && s.includes("UTC") && !s.includes("getHours"));
  if (localtime.length !== 1 || tzset.length !== 1) {
    throw new Error("this QuickJS build's time functions were not recognised; the timeZone option cannot be applied");
  }
  const offsetAt = offsetFinder(timeZone);
  const years = new Map<number, [number, number]>();
  const yearOffsets = (year: number): [number, number] => {
    let pair = years.get(year);
    if (!pair) {
      if (years.size >= MAX_BUCKETS) years.clear();
      years.set(year, (pair = [offsetAt(Date.UTC(year, 0, 1)), offsetAt(Date.UTC(year, 6, 1))]));
    }
    return pair;
  };

  env[localtime[0]] = function localtimeInZone(seconds: bigint | number, tm: number): void {
    const value = Number(seconds);
    const ms = Math.abs(value) <= MAX_TIME / 1000 ? value * 1000 : NaN;
    const east = Number.isNaN(ms) ? 0 : offsetAt(ms);
    // past the range's edge, the same day 400 years in (a Gregorian cycle: same calendar, same weekdays)
    const wall = ms + east * MINUTE;
    const shift = wall > MAX_TIME ? -1 : wall < -MAX_TIME ? 1 : 0;
    const local = new Date(wall + shift * CYCLE_MS);
    const year = local.getUTCFullYear() - shift * 400;
    const [january, july] = Number.isNaN(ms) ? [0, 0] : yearOffsets(year);
    const fields = new Int32Array(memory.buffer, tm, 10);
    fields[0] = local.getUTCSeconds();
    fields[1] = local.getUTCMinutes();
    fields[2] = local.getUTCHours();
    fields[3] = local.getUTCDate();
    fields[4] = local.getUTCMonth();
    fields[5] = year - 1900;
    fields[6] = local.getUTCDay();
    fields[7] =
      CUMULATIVE_DAYS[local.getUTCMonth()] + (isLeap(year) && local.getUTCMonth() > 1 ? 1 : 0) + local.getUTCDate() - 1;
    fields[8] = january !== july && east === Math.max(january, july) ? 1 : 0;
    fields[9] = east * 60;
  };

  env[tzset[0]] = function tzsetInZone(timezone: number, daylight: number, stdName: number, dstName: number): void {
    const [january, july] = yearOffsets(new Date().getUTCFullYear());
    new Uint32Array(memory.buffer, timezone, 1)[0] = -60 * Math.min(january, july);
    new Int32Array(memory.buffer, daylight, 1)[0] = january !== july ? 1 : 0;
    writeAscii(memory, stdName, zoneLabel(Math.min(january, july)), 17);
    writeAscii(memory, dstName, zoneLabel(Math.max(january, july)), 17);
  };
}
