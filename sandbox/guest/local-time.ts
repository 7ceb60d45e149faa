/**
 * Local time around daylight-saving changes. QuickJS turns local fields into a time with the
 * offset in force at the fields read as UTC, so for up to the zone's offset after a change
 * (5 hours in New York) `new Date(y, m, d, h)`, `setHours` and friends use the offset from
 * before it: an hour off. ECMA-262's UTC(t) is done here instead: the offset that makes the
 * local time true; in a skipped hour the offset from before the change (02:30 becomes 03:30),
 * in a repeated hour the earlier of the two. Reading local fields (`getHours` …) is right in
 * QuickJS and is what this builds on. The constructor with fields, local ISO strings
 * (`"2024-03-10T03:30"`, in `new Date` and `Date.parse`) and the local setters are replaced.
 */
const NativeDate = Date;
const proto = NativeDate.prototype;
const callOf = Function.prototype.call.bind(Function.prototype.call) as (
  fn: Function,
  self: unknown,
  ...args: unknown[]
) => any;
const {
  getTime,
  setTime,
  getTimezoneOffset,
  getFullYear,
  getMonth,
  getDate,
  getHours,
  getMinutes,
  getSeconds,
  getMilliseconds,
} = proto;
const { setUTCFullYear, setUTCHours } = proto;
/** The local fields in the order of ECMA-262's MakeDate arguments. */
const FIELD_GETTERS = [getFullYear, getMonth, getDate, getHours, getMinutes, getSeconds, getMilliseconds];
const nativeParse = NativeDate.parse;
const nativeUTC = NativeDate.UTC;
const defineProperty = Object.defineProperty;
const isFinite = Number.isFinite;
const DAY = 86_400_000;
const MAX_TIME = 8.64e15;
/** An ISO date-time without a zone: ECMA-262 reads it as local time. */
const LOCAL_ISO = /^[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?$/;

/** The zone's offset at instant `t`, in minutes (positive west, as getTimezoneOffset). */
function offsetAt(t: number): number {
  return callOf(getTimezoneOffset, new NativeDate(t));
}

/** ECMA-262 UTC(local): `local` is a local date and time whose fields were read as UTC. */
export function utcOf(local: number): number {
  if (!(Math.abs(local) <= MAX_TIME + DAY)) return NaN;
  const before = offsetAt(local - DAY);
  const after = offsetAt(local + DAY);
  const early = local + before * 60_000;
  if (before === after) return early;
  const late = local + after * 60_000;
  const earlyHolds = offsetAt(early) === before;
  const lateHolds = offsetAt(late) === after;
  if (earlyHolds && lateHolds) return Math.min(early, late);
  if (lateHolds) return late;
  return early; // holds, or a skipped time: the offset from before the change
}

function timeClip(t: number): number {
  return Math.abs(t) <= MAX_TIME ? Math.trunc(t) + 0 : NaN;
}

/** Local fields (year as given, no 0–99 mapping) read as a UTC time value. */
function fieldsAsUtc(
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
  seconds: number,
  ms: number,
): number {
  // QuickJS's setUTCFullYear returns NaN for a NaN field but keeps the old time: checked here
  if (!isFinite(year + month + day + hours + minutes + seconds + ms)) return NaN;
  const date = new NativeDate(0);
  callOf(setUTCFullYear, date, year, month, day);
  return callOf(setUTCHours, date, hours, minutes, seconds, ms);
}

function localParse(text: string): number {
  return LOCAL_ISO.test(text) ? timeClip(utcOf(nativeParse(`${text}Z`))) : nativeParse(text);
}

/**
 * @example installLocalTime() // once, in the prelude
 */
export function installLocalTime(): void {
  const LocalDate = function Date(this: unknown, ...args: unknown[]) {
    if (new.target === undefined) return NativeDate();
    let made: unknown[] = args;
    if (args.length >= 2) {
      made = [timeClip(utcOf((nativeUTC as (...a: unknown[]) => number)(...args)))];
    } else if (args.length === 1) {
      const value = args[0];
      const primitive =
        typeof value === "object" && value !== null && !(value instanceof NativeDate) ? toPrimitive(value) : value;
      made = [typeof primitive === "string" ? localParse(primitive) : primitive];
    }
    return Reflect.construct(NativeDate, made, new.target);
  } as unknown as DateConstructor;
  defineProperty(LocalDate, "name", { value: "Date" }); // the prelude is minified
  defineProperty(LocalDate, "length", { value: 7 });
  defineProperty(LocalDate, "prototype", { value: proto, writable: false });
  defineProperty(proto, "constructor", { value: LocalDate, writable: true, configurable: true });
  for (const name of ["now", "UTC"] as const) {
    defineProperty(LocalDate, name, { value: NativeDate[name], writable: true, configurable: true });
  }
  defineProperty(LocalDate, "parse", {
    value: function parse(text: unknown) {
      return localParse(String(text));
    },
    writable: true,
    configurable: true,
  });
  defineProperty(globalThis, "Date", { value: LocalDate, writable: true, configurable: true });

  /** Each local setter: which field its first argument sets, and how many fields it may set. */
  const setters = [
    ["setMilliseconds", 6, 1],
    ["setSeconds", 5, 2],
    ["setMinutes", 4, 3],
    ["setHours", 3, 4],
    ["setDate", 2, 1],
    ["setMonth", 1, 2],
    ["setFullYear", 0, 3],
  ] as const;
  for (const [name, first, count] of setters) {
    const setter = function (this: unknown, ...args: unknown[]) {
      const t = callOf(getTime, this) as number;
      // ECMA-262: the first argument is always read (`setHours()` sets NaN), the others only when
      // passed, even as undefined (`setMonth(6, undefined)` is NaN). A null-prototype record, not
      // an array: a guest's setter on Array.prototype must not see or change these.
      const given: Record<number, number> = { __proto__: null } as never;
      const n = args.length < 1 ? 1 : args.length < count ? args.length : count;
      for (let i = 0; i < n; i++) given[i] = +(args[i] as number);
      if (t !== t && name !== "setFullYear") return NaN;
      // setFullYear on an invalid date starts from +0 read as local time: 1970-01-01 00:00
      const fields: Record<number, number> = { __proto__: null } as never;
      for (let i = 0; i < 7; i++) {
        if (i >= first && i < first + n) fields[i] = given[i - first];
        else fields[i] = t !== t ? (i === 0 ? 1970 : i === 2 ? 1 : 0) : (callOf(FIELD_GETTERS[i], this) as number);
      }
      const local = fieldsAsUtc(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6]);
      return callOf(setTime, this, timeClip(utcOf(local)));
    };
    defineProperty(setter, "name", { value: name });
    defineProperty(setter, "length", { value: count });
    defineProperty(proto, name, { value: setter, writable: true, configurable: true });
  }
}

function toPrimitive(value: object): unknown {
  const exotic = (value as { [Symbol.toPrimitive]?: (hint: string) => unknown })[Symbol.toPrimitive];
  if (typeof exotic === "function") return exotic.call(value, "default");
  for (const method of ["valueOf", "toString"] as const) {
    const fn = (value as Record<string, unknown>)[method];
    if (typeof fn === "function") {
      const result = fn.call(value);
      if (typeof result !== "object" || result === null) return result;
    }
  }
  throw new TypeError("cannot convert object to primitive value");
}
