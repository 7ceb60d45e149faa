/**
 * `Intl`, backed by the host's (ops `intl.make`, `intl.call`, `intl.query`; src/intl-ops.ts).
 * Each guest formatter names one host object made once: formatting a value is one synchronous
 * crossing. The sandbox's locale and time zone are the defaults. A lazy part of the prelude;
 * the locale methods of Number, Date, String and Array (locale-methods.ts) use it too.
 */
import type { OpArgs } from "../src/bridge/op-table.ts";
import type { Bridge } from "./bridge.ts";
import { makeError } from "./errors.ts";
import { plainJson } from "./plain-json.ts";
import { NULL_IS_FALSE, OPTION_NAMES, type IntlKind } from "../src/bridge/intl-options.ts";

export const GLOBALS = ["Intl"];

type Kind = IntlKind;

/** src/intl-ops.ts STALE_INTL_OBJECT: the host dropped the object; make it again. */
const STALE = "StaleIntlObject";
const defineProperty = Object.defineProperty;

/** ECMA-402's `length` of the constructors that are not 0. */
const CONSTRUCTOR_LENGTHS: Record<string, number> = { DisplayNames: 2, Locale: 1 };

/** Gives a built-in function its ECMA-402 `name` and `length` (the prelude is minified). */
function named<F extends Function>(fn: F, name: string, length: number): F {
  defineProperty(fn, "name", { value: name, configurable: true });
  defineProperty(fn, "length", { value: length, configurable: true });
  return fn;
}

/** Adds to a list without `push` or an index write, which a guest's setter on Array.prototype would see. */
function append<T>(list: T[], value: T): void {
  defineProperty(list, list.length, { value, writable: true, enumerable: true, configurable: true });
}

export interface IntlApi {
  Intl: Record<string, unknown>;
  /** The cached formatter for these arguments (locale methods of Number, Date, String). */
  formatter(kind: Kind, locales: unknown, options: unknown): any;
  /**
   * The cached date formatter of `Date.prototype.toLocale{,Date,Time}String`: ECMA-402's
   * ToDateTimeOptions, `required` fields checked and `defaults` added when none is given.
   */
  dateFormatter(
    locales: unknown,
    options: unknown,
    required: "date" | "time" | "any",
    defaults: "date" | "time" | "all",
  ): any;
  /** The sandbox's default locale. */
  defaultLocale(): string;
  /** `toLocaleUpperCase`/`toLocaleLowerCase` by the host (only needed for tr, az, lt). */
  changeCase(text: string, locales: unknown, upper: boolean): string;
}

type IntlOp = "intl.make" | "intl.call" | "intl.query";

export function install(bridge: Bridge): IntlApi {
  function host<T>(op: IntlOp, args: OpArgs<IntlOp>): T {
    try {
      return bridge.callSync(op, args) as T;
    } catch (error) {
      const { name, message } = error as Error;
      throw makeError(String(name), String(message));
    }
  }

  /** Each guest Intl.Locale's fields, read once from the host. */
  const localeFields = new WeakMap<object, Record<string, any>>();
  function tagOf(value: unknown): string | undefined {
    const fields = typeof value === "object" && value !== null ? localeFields.get(value) : undefined;
    return fields?.tag;
  }

  function localeTags(locales: unknown): string[] | undefined {
    if (locales === undefined) return undefined;
    const tag = tagOf(locales);
    if (tag !== undefined) return [tag];
    if (typeof locales === "string") return [locales];
    if (locales === null) throw new TypeError("Intl: locales should not be null");
    const list = Object(locales) as ArrayLike<unknown>;
    const tags: string[] = [];
    for (let i = 0; i < (Number(list.length) || 0); i++) {
      const item = list[i];
      const itemTag = tagOf(item);
      if (itemTag !== undefined) append(tags, itemTag);
      else if (typeof item === "string" || (typeof item === "object" && item !== null)) append(tags, String(item));
      else throw new TypeError("Intl: each locale should be a string or an Intl.Locale");
    }
    return tags;
  }

  function optionsOf(kind: Kind | "Locale", options: unknown): Record<string, unknown> | undefined {
    if (options === undefined) return undefined;
    if (options === null) throw new TypeError("Intl: options should not be null");
    const source = Object(options) as Record<string, unknown>;
    const picked: Record<string, unknown> = {};
    const nullIsFalse = NULL_IS_FALSE[kind];
    for (const name of OPTION_NAMES[kind]) {
      const value = source[name];
      if (value === undefined) continue;
      if (value === null && nullIsFalse?.includes(name)) picked[name] = false;
      else
        picked[name] =
          typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : String(value);
    }
    return picked;
  }

  /** A number, BigInt or numeric string as JSON can carry it (see src/intl-ops.ts decodeValue). */
  function numeric(value: unknown): unknown {
    if (typeof value === "bigint") return { b: value.toString() };
    if (typeof value === "string") return value;
    const n = Number(value);
    if (n !== n) return { n: "NaN" };
    if (n === Infinity) return { n: "Infinity" };
    if (n === -Infinity) return { n: "-Infinity" };
    if (n === 0 && 1 / n < 0) return { n: "-0" };
    return n;
  }

  function timeValue(date: unknown): number {
    const t = date === undefined ? Date.now() : Number(date);
    if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) throw new RangeError("Invalid time value");
    return t;
  }

  /** The host object behind one guest formatter; made again if the host dropped it. */
  class Handle {
    id: number;
    readonly resolved: Record<string, unknown>;
    constructor(
      readonly kind: Kind,
      private readonly spec: { kind: Kind; locales: unknown; options: unknown },
    ) {
      const made = host<{ id: number; resolved: Record<string, unknown> }>("intl.make", spec);
      this.id = made.id;
      this.resolved = made.resolved;
    }
    call<T>(method: string, args: unknown[]): T {
      try {
        return bridge.callSync("intl.call", { id: this.id, method, args }) as T;
      } catch (error) {
        const { name, message } = error as Error;
        if (name !== STALE) throw makeError(String(name), String(message));
        this.id = host<{ id: number }>("intl.make", this.spec).id;
        return host<T>("intl.call", { id: this.id, method, args });
      }
    }
  }

  const handles = new WeakMap<object, Handle>();
  function handleOf(object: unknown, kind: Kind): Handle {
    const handle = typeof object === "object" && object !== null ? handles.get(object) : undefined;
    if (!handle || handle.kind !== kind)
      throw new TypeError(`Method Intl.${kind}.prototype called on an incompatible receiver`);
    return handle;
  }
  function bind(object: object, kind: Kind, locales: unknown, options: unknown): void {
    handles.set(object, new Handle(kind, { kind, locales: localeTags(locales), options: optionsOf(kind, options) }));
  }
  function resolvedOptions(this: unknown, kind: Kind): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    const resolved = handleOf(this, kind).resolved;
    for (const key of Object.keys(resolved)) {
      const value = resolved[key];
      copy[key] = Array.isArray(value) ? value.slice() : value;
    }
    return copy;
  }
  function supportedLocalesOf(kind: Kind) {
    // method syntax: not a constructor, as ECMA-402's built-in functions
    const { supportedLocalesOf } = {
      supportedLocalesOf(locales: unknown, options?: unknown): string[] {
        return host("intl.query", {
          what: "supportedLocalesOf",
          kind,
          locales: localeTags(locales) ?? [],
          options: optionsOf(kind, options),
        });
      },
    };
    return named(supportedLocalesOf, "supportedLocalesOf", 1);
  }
  /**
   * Methods on the prototype, `resolvedOptions`, `supportedLocalesOf`, `toStringTag`, and bound getters (`format`,
   * `compare`).
   */
  function finish(
    Class: { prototype: object; name: string },
    kind: Kind,
    bound?: { name: string; method: (handle: Handle) => Function },
  ): void {
    const methods = {
      resolvedOptions(this: unknown) {
        return resolvedOptions.call(this, kind);
      },
    };
    defineProperty(Class.prototype, "resolvedOptions", {
      value: named(methods.resolvedOptions, "resolvedOptions", 0),
      writable: true,
      configurable: true,
    });
    defineProperty(Class, "supportedLocalesOf", {
      value: supportedLocalesOf(kind),
      writable: true,
      configurable: true,
    });
    defineProperty(Class.prototype, Symbol.toStringTag, { value: `Intl.${kind}`, configurable: true });
    if (bound) {
      const cache = new WeakMap<object, Function>();
      const accessor = {
        get(this: object) {
          const handle = handleOf(this, kind);
          let fn = cache.get(this);
          if (!fn) {
            fn = bound.method(handle);
            // ECMA-402's bound functions are anonymous: no own `name`
            delete (fn as { name?: string }).name;
            cache.set(this, fn);
          }
          return fn;
        },
      };
      defineProperty(Class.prototype, bound.name, {
        configurable: true,
        get: named(accessor.get, `get ${bound.name}`, 0),
      });
    }
  }

  class DateTimeFormat {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "DateTimeFormat", locales, options);
    }
    formatToParts(date?: unknown) {
      return handleOf(this, "DateTimeFormat").call("formatToParts", [timeValue(date)]);
    }
    formatRange(start: unknown, end: unknown) {
      return handleOf(this, "DateTimeFormat").call("formatRange", [timeValue(start), timeValue(end)]);
    }
    formatRangeToParts(start: unknown, end: unknown) {
      return handleOf(this, "DateTimeFormat").call("formatRangeToParts", [timeValue(start), timeValue(end)]);
    }
  }
  finish(DateTimeFormat, "DateTimeFormat", {
    name: "format",
    method: (handle) => (date?: unknown) => handle.call<string>("format", [timeValue(date)]),
  });

  class NumberFormat {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "NumberFormat", locales, options);
    }
    formatToParts(value: unknown) {
      return handleOf(this, "NumberFormat").call("formatToParts", [numeric(value)]);
    }
    formatRange(start: unknown, end: unknown) {
      return handleOf(this, "NumberFormat").call("formatRange", [numeric(start), numeric(end)]);
    }
    formatRangeToParts(start: unknown, end: unknown) {
      return handleOf(this, "NumberFormat").call("formatRangeToParts", [numeric(start), numeric(end)]);
    }
  }
  finish(NumberFormat, "NumberFormat", {
    name: "format",
    method: (handle) => (value: unknown) => handle.call<string>("format", [numeric(value)]),
  });

  class RelativeTimeFormat {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "RelativeTimeFormat", locales, options);
    }
    format(value: unknown, unit: unknown) {
      return handleOf(this, "RelativeTimeFormat").call("format", [numeric(Number(value)), String(unit)]);
    }
    formatToParts(value: unknown, unit: unknown) {
      return handleOf(this, "RelativeTimeFormat").call("formatToParts", [numeric(Number(value)), String(unit)]);
    }
  }
  finish(RelativeTimeFormat, "RelativeTimeFormat");

  class PluralRules {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "PluralRules", locales, options);
    }
    select(value: unknown) {
      return handleOf(this, "PluralRules").call("select", [numeric(Number(value))]);
    }
    selectRange(start: unknown, end: unknown) {
      return handleOf(this, "PluralRules").call("selectRange", [numeric(Number(start)), numeric(Number(end))]);
    }
  }
  finish(PluralRules, "PluralRules");

  class ListFormat {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "ListFormat", locales, options);
    }
    format(list: Iterable<unknown>) {
      return handleOf(this, "ListFormat").call("format", [stringsOf(list)]);
    }
    formatToParts(list: Iterable<unknown>) {
      return handleOf(this, "ListFormat").call("formatToParts", [stringsOf(list)]);
    }
  }
  finish(ListFormat, "ListFormat");
  function stringsOf(list: Iterable<unknown>): string[] {
    if (list === undefined) return [];
    const out: string[] = [];
    for (const item of list) {
      if (typeof item !== "string") throw new TypeError("Intl.ListFormat: the list should hold strings only");
      append(out, item);
    }
    return out;
  }

  class Collator {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "Collator", locales, options);
    }
  }
  finish(Collator, "Collator", {
    name: "compare",
    method: (handle) => (a: unknown, b: unknown) => {
      const x = String(a);
      const y = String(b);
      return x === y ? 0 : handle.call<number>("compare", [x, y]);
    },
  });

  class Segmenter {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "Segmenter", locales, options);
    }
    segment(input: unknown) {
      const text = String(input);
      const handle = handleOf(this, "Segmenter");
      const { lengths, wordLike } = handle.call<{ lengths: number[]; wordLike?: string }>("segment", [text]);
      const records: Record<string, unknown>[] = [];
      let index = 0;
      for (let i = 0; i < lengths.length; i++) {
        const segment = text.slice(index, index + lengths[i]);
        append(
          records,
          wordLike === undefined
            ? { segment, index, input: text }
            : { segment, index, input: text, isWordLike: wordLike[i] === "1" },
        );
        index += lengths[i];
      }
      return new Segments(records);
    }
  }
  finish(Segmenter, "Segmenter");
  class Segments {
    #records: Record<string, unknown>[];
    constructor(records: Record<string, unknown>[]) {
      this.#records = records;
    }
    static {
      // ECMA-402's %SegmentsPrototype% has no constructor
      delete (Segments.prototype as { constructor?: unknown }).constructor;
    }
    containing(index: unknown = 0) {
      const at = Math.trunc(Number(index)) || 0;
      return this.#records.find(
        (r) => at >= (r.index as number) && at < (r.index as number) + (r.segment as string).length,
      );
    }
    [Symbol.iterator]() {
      return this.#records.map((r) => ({ ...r }))[Symbol.iterator]();
    }
  }

  class DisplayNames {
    constructor(locales?: unknown, options?: unknown) {
      bind(this, "DisplayNames", locales, options);
    }
    of(code: unknown) {
      return handleOf(this, "DisplayNames").call("of", [String(code)]);
    }
  }
  finish(DisplayNames, "DisplayNames");

  class Locale {
    constructor(tag: unknown, options?: unknown) {
      const text =
        tagOf(tag) ?? (typeof tag === "string" || (typeof tag === "object" && tag !== null) ? String(tag) : undefined);
      if (text === undefined) throw new TypeError("Intl.Locale: the tag should be a string or an Intl.Locale");
      localeFields.set(this, host("intl.query", { what: "locale", tag: text, options: optionsOf("Locale", options) }));
    }
    maximize() {
      return new Locale(fieldsOf(this).maximized);
    }
    minimize() {
      return new Locale(fieldsOf(this).minimized);
    }
    toString() {
      return fieldsOf(this).tag;
    }
  }
  function fieldsOf(locale: unknown): Record<string, any> {
    const fields = typeof locale === "object" && locale !== null ? localeFields.get(locale) : undefined;
    if (!fields) throw new TypeError("Method Intl.Locale.prototype called on an incompatible receiver");
    return fields;
  }
  for (const name of ["baseName", ...OPTION_NAMES.Locale]) {
    const accessor = {
      get(this: unknown) {
        return fieldsOf(this)[name];
      },
    };
    defineProperty(Locale.prototype, name, { configurable: true, get: named(accessor.get, `get ${name}`, 0) });
  }
  for (const name of [
    "calendars",
    "collations",
    "hourCycles",
    "numberingSystems",
    "textInfo",
    "timeZones",
    "weekInfo",
  ]) {
    const copy = (locale: unknown) => {
      const value = fieldsOf(locale)[name];
      return value === undefined || value === null ? undefined : JSON.parse(plainJson(value, 64, "Intl.Locale")!);
    };
    const accessor = {
      get(this: unknown) {
        return copy(this);
      },
    };
    defineProperty(Locale.prototype, name, { configurable: true, get: named(accessor.get, `get ${name}`, 0) });
    const getterName = `get${name[0].toUpperCase()}${name.slice(1)}`;
    const methods = {
      value(this: unknown) {
        return copy(this);
      },
    };
    defineProperty(Locale.prototype, getterName, {
      configurable: true,
      writable: true,
      value: named(methods.value, getterName, 0),
    });
  }
  defineProperty(Locale.prototype, Symbol.toStringTag, { value: "Intl.Locale", configurable: true });

  /**
   * DateTimeFormat, NumberFormat and Collator may be called without `new` (ECMA-402's legacy
   * constructors; rrule does `Intl.DateTimeFormat()`): a function sharing the class's prototype.
   */
  function callable(Class: new (locales?: unknown, options?: unknown) => object, name: string): Function {
    const Callable = function (this: unknown, locales?: unknown, options?: unknown) {
      return Reflect.construct(Class, [locales, options], new.target ?? Callable);
    };
    defineProperty(Callable, "name", { value: name });
    defineProperty(Callable, "prototype", { value: Class.prototype, writable: false });
    defineProperty(Class.prototype, "constructor", { value: Callable, writable: true, configurable: true });
    defineProperty(Callable, "supportedLocalesOf", {
      value: (Class as unknown as { supportedLocalesOf: unknown }).supportedLocalesOf,
      writable: true,
      configurable: true,
    });
    return Callable;
  }

  const Intl: Record<string, unknown> = {
    DateTimeFormat: callable(DateTimeFormat, "DateTimeFormat"),
    NumberFormat: callable(NumberFormat, "NumberFormat"),
    RelativeTimeFormat,
    PluralRules,
    ListFormat,
    Collator: callable(Collator, "Collator"),
    Segmenter,
    DisplayNames,
    Locale,
  };
  for (const name of Object.keys(Intl)) {
    defineProperty(Intl, name, { enumerable: false });
    // the prelude is minified; ECMA-402's constructors take (locales, options) as optional
    named(Intl[name] as Function, name, CONSTRUCTOR_LENGTHS[name] ?? 0);
  }
  const statics: Record<string, (value: unknown) => string[]> = {
    getCanonicalLocales: (locales) =>
      host("intl.query", { what: "getCanonicalLocales", locales: localeTags(locales) ?? [] }),
    supportedValuesOf: (key) => host("intl.query", { what: "supportedValuesOf", key: String(key) }),
  };
  for (const [name, fn] of Object.entries(statics)) {
    defineProperty(fn, "name", { value: name }); // the prelude is minified
    defineProperty(Intl, name, { value: fn, writable: true, configurable: true });
  }
  defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  defineProperty(globalThis, "Intl", { value: Intl, writable: true, configurable: true, enumerable: false });

  /** Formatters of the locale methods, by their arguments (most recently made last). */
  const cache = new Map<string, any>();
  const MAX_CACHED = 64;
  const Constructors: Record<Kind, new (l: unknown, o: unknown) => any> = {
    DateTimeFormat,
    NumberFormat,
    RelativeTimeFormat,
    PluralRules,
    ListFormat,
    Collator,
    Segmenter,
    DisplayNames,
  };
  let defaultLocale: string | undefined;

  function cachedFormatter(kind: Kind, tags: string[] | undefined, picked: Record<string, unknown> | undefined): any {
    const key = plainJson([kind, tags, picked], 64, "Intl")!;
    return cache.get(key) ?? cacheAs(key, new Constructors[kind](tags, picked));
  }

  function cacheAs(key: string, made: any): any {
    cache.set(key, made);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
    return made;
  }

  return {
    Intl,
    formatter(kind, locales, options) {
      // The common call (`n.toLocaleString("de")`, `a.localeCompare(b)`) skips building a key.
      if (options === undefined && (locales === undefined || typeof locales === "string")) {
        const quick = `${kind} ${locales ?? ""}`;
        return cache.get(quick) ?? cacheAs(quick, cachedFormatter(kind, localeTags(locales), undefined));
      }
      return cachedFormatter(kind, localeTags(locales), optionsOf(kind, options));
    },
    dateFormatter(locales, options, required, defaults) {
      return cachedFormatter(
        "DateTimeFormat",
        localeTags(locales),
        toDateTimeOptions(optionsOf("DateTimeFormat", options) ?? {}, required, defaults),
      );
    },
    defaultLocale() {
      return (defaultLocale ??= host<string>("intl.query", { what: "defaultLocale" }));
    },
    changeCase(text, locales, upper) {
      return host<string>("intl.query", { what: "case", text, locales: localeTags(locales) ?? [], upper });
    },
  };
}

const DATE_FIELDS = ["weekday", "year", "month", "day"];
const TIME_FIELDS = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"];

/** ECMA-402 ToDateTimeOptions, on options already picked (a plain copy). */
function toDateTimeOptions(
  options: Record<string, unknown>,
  required: "date" | "time" | "any",
  defaults: "date" | "time" | "all",
): Record<string, unknown> {
  let needDefaults = true;
  if (required !== "time" && DATE_FIELDS.some((name) => options[name] !== undefined)) needDefaults = false;
  if (required !== "date" && TIME_FIELDS.some((name) => options[name] !== undefined)) needDefaults = false;
  if (options.dateStyle !== undefined || options.timeStyle !== undefined) needDefaults = false;
  if (required === "date" && options.timeStyle !== undefined) throw new TypeError("Invalid option : timeStyle");
  if (required === "time" && options.dateStyle !== undefined) throw new TypeError("Invalid option : dateStyle");
  if (needDefaults && defaults !== "time") options.year = options.month = options.day = "numeric";
  if (needDefaults && defaults !== "date") options.hour = options.minute = options.second = "numeric";
  return options;
}
