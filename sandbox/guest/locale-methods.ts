/**
 * The locale methods of Number, BigInt, Date, String, Array and typed arrays, routed through the
 * guest's `Intl` (intl.ts, loaded on first use): QuickJS's own ignore locale and options.
 * Each uses a formatter cached by its arguments, so a repeated call is one host crossing.
 */
import type { IntlApi } from "./intl.ts";

const defineProperty = Object.defineProperty;
const callOf = Function.prototype.call.bind(Function.prototype.call) as (
  fn: Function,
  self: unknown,
  ...args: unknown[]
) => any;
const numberValue = Number.prototype.valueOf;
const bigintValue = BigInt.prototype.valueOf;
const timeValue = Date.prototype.getTime;
const dateString = Date.prototype.toString;
const timeString = Date.prototype.toTimeString;
const upper = String.prototype.toUpperCase;
const lower = String.prototype.toLowerCase;
const typedArrayLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length")!.get!;

/** The options naming a date's zone, for `Date.prototype.toString`. */
const ZONE_NAME = { timeZoneName: "long" };

/** Languages whose case mapping differs from the default one (ICU's special casing). */
const SPECIAL_CASING = new Set(["tr", "az", "lt"]);

function method(target: object, name: string, length: number, fn: Function): void {
  defineProperty(fn, "name", { value: name, configurable: true });
  defineProperty(fn, "length", { value: length, configurable: true });
  defineProperty(target, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

function thisString(self: unknown, name: string): string {
  if (self === undefined || self === null) throw new TypeError(`String.prototype.${name} called on null or undefined`);
  return String(self);
}

/**
 * @example installLocaleMethods(() => loaders.intl() as IntlApi)
 */
export function installLocaleMethods(intl: () => IntlApi): void {
  method(Number.prototype, "toLocaleString", 0, function (this: unknown, locales?: unknown, options?: unknown) {
    return intl().formatter("NumberFormat", locales, options).format(callOf(numberValue, this));
  });
  method(BigInt.prototype, "toLocaleString", 0, function (this: unknown, locales?: unknown, options?: unknown) {
    return intl().formatter("NumberFormat", locales, options).format(callOf(bigintValue, this));
  });

  const dates = [
    ["toLocaleString", "any", "all"],
    ["toLocaleDateString", "date", "date"],
    ["toLocaleTimeString", "time", "time"],
  ] as const;
  for (const [name, required, defaults] of dates) {
    method(Date.prototype, name, 0, function (this: unknown, locales?: unknown, options?: unknown) {
      const t = callOf(timeValue, this) as number;
      if (t !== t) return "Invalid Date";
      return intl().dateFormatter(locales, options, required, defaults).format(t);
    });
  }

  // `toString` and `toTimeString` end with the zone's name in the default locale, as V8's
  // ("GMT-0400 (Eastern Daylight Time)"); QuickJS stops at the offset.
  for (const [name, native] of [
    ["toString", dateString],
    ["toTimeString", timeString],
  ] as const) {
    method(Date.prototype, name, 0, function (this: unknown) {
      const text = callOf(native, this) as string;
      const t = callOf(timeValue, this) as number;
      if (t !== t) return text;
      const parts = intl().formatter("DateTimeFormat", undefined, ZONE_NAME).formatToParts(t);
      for (let i = 0; i < parts.length; i++) if (parts[i].type === "timeZoneName") return `${text} (${parts[i].value})`;
      return text;
    });
  }

  method(
    String.prototype,
    "localeCompare",
    1,
    function (this: unknown, that: unknown, locales?: unknown, options?: unknown) {
      const text = thisString(this, "localeCompare");
      return intl().formatter("Collator", locales, options).compare(text, String(that));
    },
  );
  for (const [name, toUpper] of [
    ["toLocaleUpperCase", true],
    ["toLocaleLowerCase", false],
  ] as const) {
    method(String.prototype, name, 0, function (this: unknown, locales?: unknown) {
      const text = thisString(this, name);
      const first =
        locales === undefined
          ? intl().defaultLocale()
          : typeof locales === "string"
            ? locales
            : String((Object(locales) as ArrayLike<unknown>)[0] ?? locales);
      const language = first.toLowerCase().split(/[-_]/)[0];
      if (SPECIAL_CASING.has(language)) return intl().changeCase(text, locales, toUpper);
      return callOf(toUpper ? upper : lower, text);
    });
  }

  function listToLocaleString(list: ArrayLike<unknown>, length: number, locales: unknown, options: unknown): string {
    let out = "";
    for (let i = 0; i < length; i++) {
      if (i > 0) out += ",";
      const item = list[i] as { toLocaleString?: (l: unknown, o: unknown) => unknown } | null | undefined;
      if (item !== undefined && item !== null) out += String(item.toLocaleString!(locales, options));
    }
    return out;
  }
  method(Array.prototype, "toLocaleString", 0, function (this: unknown, locales?: unknown, options?: unknown) {
    const list = Object(this) as ArrayLike<unknown>;
    const length = Math.min(Math.max(Math.trunc(Number(list.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
    return listToLocaleString(list, length, locales, options);
  });
  method(
    Object.getPrototypeOf(Uint8Array.prototype),
    "toLocaleString",
    0,
    function (this: unknown, locales?: unknown, options?: unknown) {
      return listToLocaleString(this as ArrayLike<unknown>, callOf(typedArrayLength, this), locales, options);
    },
  );
}
