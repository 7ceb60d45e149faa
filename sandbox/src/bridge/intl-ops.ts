/**
 * The Node half of the guest's `Intl` (guest/intl.ts): the guest's formatters are the host's
 * own `Intl` objects, kept here per sandbox and named by number. Ops `intl.make`, `intl.call`
 * and `intl.query` (BRIDGE.md); every argument is plain JSON checked here, only the listed
 * kinds, methods and option names reach `Intl`, and only strings, numbers, booleans and
 * arrays or plain objects of them come back.
 *
 * The sandbox's locale and time zone (`initialize`'s) are the defaults: a formatter made
 * without a locale uses the sandbox's, a date formatter without `timeZone` the sandbox's zone.
 */

import { OPTION_NAMES, type IntlKind } from "./intl-options.js";

/** Formatter objects kept per sandbox; past it the least recently used is dropped (the guest makes it again). */
export const MAX_INTL_OBJECTS = 256;
/** Locales in one list, at most. */
const MAX_LOCALES = 64;
/** Characters of one locale tag or option value, at most. */
const MAX_TAG_CHARS = 256;

/** The error name the guest recognises: its object was dropped here and must be made again. */
export const STALE_INTL_OBJECT = "StaleIntlObject";

type Kind = IntlKind;

/** What a guest may call on each kind, and how many arguments each method takes. */
const METHODS = {
  DateTimeFormat: { format: 1, formatToParts: 1, formatRange: 2, formatRangeToParts: 2 },
  NumberFormat: { format: 1, formatToParts: 1, formatRange: 2, formatRangeToParts: 2 },
  RelativeTimeFormat: { format: 2, formatToParts: 2 },
  PluralRules: { select: 1, selectRange: 2 },
  ListFormat: { format: 1, formatToParts: 1 },
  Collator: { compare: 2 },
  Segmenter: { segment: 1 },
  DisplayNames: { of: 1 },
} as const satisfies Record<string, Record<string, number>>;

/** The defaults a sandbox's formatters start from: `initialize`'s locale and time zone. */
export interface IntlDefaults {
  locale?: string;
  timeZone?: string;
}

type Formatter = { [method: string]: (...args: unknown[]) => unknown; resolvedOptions(): object };

/**
 * One sandbox's `Intl` objects. Made objects are shared by key (kind, locales, options), so a
 * guest making the same formatter in a loop holds one.
 *
 * @example
 * const intl = new IntlOps({ locale: "de-DE", timeZone: "Europe/Berlin" });
 * const { id } = intl.make({ kind: "NumberFormat", locales: [], options: {} });
 * intl.call({ id, method: "format", args: [1234.5] }) // "1.234,5"
 */
export class IntlOps {
  private readonly objects = new Map<number, { key: string; kind: Kind; object: Formatter }>();
  private readonly byKey = new Map<string, number>();
  private nextId = 1;

  constructor(private readonly defaults: IntlDefaults = {}) {}

  /** `intl.make {kind, locales, options}` → `{id, resolved}` (resolvedOptions). */
  make(raw: unknown): { id: number; resolved: object } {
    const args = record("intl.make", raw);
    const kind = args.kind;
    if (typeof kind !== "string" || !Object.hasOwn(METHODS, kind))
      throw new TypeError(`intl.make: "${String(kind)}" is not an Intl kind`);
    const locales = this.localesOf(args.locales);
    const options = optionsOf(kind as Kind, args.options);
    if (kind === "DateTimeFormat" && options.timeZone === undefined && this.defaults.timeZone)
      options.timeZone = this.defaults.timeZone;
    const key = JSON.stringify([kind, locales, options]);
    const known = this.byKey.get(key);
    if (known !== undefined) {
      const entry = this.objects.get(known)!;
      this.touch(known, entry);
      return { id: known, resolved: entry.object.resolvedOptions() };
    }
    const Constructor = (Intl as unknown as Record<string, new (l: unknown, o: unknown) => Formatter>)[kind];
    const object = new Constructor(locales, options);
    const id = this.nextId++;
    this.touch(id, { key, kind: kind as Kind, object });
    this.byKey.set(key, id);
    while (this.objects.size > MAX_INTL_OBJECTS) {
      const [oldest, entry] = this.objects.entries().next().value!;
      this.objects.delete(oldest);
      this.byKey.delete(entry.key);
    }
    return { id, resolved: object.resolvedOptions() };
  }

  /** `intl.call {id, method, args}` → what the method returns (Segmenter: compact segments). */
  call(raw: unknown): unknown {
    const args = record("intl.call", raw);
    const entry = typeof args.id === "number" ? this.objects.get(args.id) : undefined;
    if (!entry) {
      const error = new Error("intl.call: this Intl object is no longer kept; make it again");
      error.name = STALE_INTL_OBJECT;
      throw error;
    }
    this.touch(args.id as number, entry);
    const methods: Record<string, number> = METHODS[entry.kind];
    const method = args.method;
    if (typeof method !== "string" || !Object.hasOwn(methods, method)) {
      throw new TypeError(`intl.call: Intl.${entry.kind} has no method "${String(method)}"`);
    }
    const values = Array.isArray(args.args) ? args.args.slice(0, methods[method]).map(decodeValue) : [];
    if (entry.kind === "Segmenter") return segments(entry.object, values[0]);
    if (entry.kind === "ListFormat") values[0] = stringList(values[0]);
    return entry.object[method](...values);
  }

  /**
   * `intl.query {what, …}`: `supportedValuesOf {key}`, `getCanonicalLocales {locales}`,
   * `supportedLocalesOf {kind, locales, options}`, `locale {tag, options}` (a Locale's
   * fields, maximized and minimized tags), `defaultLocale`, `case {text, locales, upper}`.
   */
  query(raw: unknown): unknown {
    const args = record("intl.query", raw);
    switch (args.what) {
      case "supportedValuesOf":
        return Intl.supportedValuesOf(text("intl.query", args.key, MAX_TAG_CHARS) as "calendar");
      case "getCanonicalLocales":
        return Intl.getCanonicalLocales(localeList(args.locales));
      case "supportedLocalesOf": {
        const kind = args.kind;
        if (typeof kind !== "string" || !Object.hasOwn(METHODS, kind))
          throw new TypeError(`intl.query: "${String(kind)}" is not an Intl kind`);
        const Constructor = (
          Intl as unknown as Record<string, { supportedLocalesOf(l: unknown, o: unknown): string[] }>
        )[kind];
        return Constructor.supportedLocalesOf(localeList(args.locales), optionsOf(kind as Kind, args.options));
      }
      case "locale":
        return localeRecord(
          new Intl.Locale(text("intl.query", args.tag, MAX_TAG_CHARS), optionsOf("Locale", args.options)),
        );
      case "defaultLocale":
        return this.defaultLocale();
      case "case": {
        const value = text("intl.query", args.text, Infinity);
        const locales = this.localesOf(args.locales);
        return args.upper === true ? value.toLocaleUpperCase(locales) : value.toLocaleLowerCase(locales);
      }
      default:
        throw new TypeError(`intl.query: "${String(args.what)}" is not a query`);
    }
  }

  /** The locale a formatter made without one uses: `initialize`'s, else the host's. */
  defaultLocale(): string {
    return new Intl.NumberFormat(this.defaults.locale).resolvedOptions().locale;
  }

  private localesOf(raw: unknown): string[] {
    const list = localeList(raw);
    return list.length === 0 && this.defaults.locale ? [this.defaults.locale] : list;
  }

  /** Most recently used last. */
  private touch(id: number, entry: { key: string; kind: Kind; object: Formatter }): void {
    this.objects.delete(id);
    this.objects.set(id, entry);
  }
}

function record(op: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new TypeError(`${op}: the arguments should be an object`);
  return raw as Record<string, unknown>;
}

function text(op: string, value: unknown, max: number): string {
  if (typeof value !== "string") throw new TypeError(`${op}: expected a string`);
  if (value.length > max)
    throw new RangeError(`${op}: a string of ${value.length} characters, over the limit of ${max}`);
  return value;
}

/** undefined, a tag, or a list of tags (the guest turns Locale objects into tags). */
function localeList(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > MAX_LOCALES) throw new RangeError(`Intl: ${list.length} locales, over the limit of ${MAX_LOCALES}`);
  return list.map((tag) => text("Intl", tag, MAX_TAG_CHARS));
}

/** Only the kind's own option names, with primitive values. */
function optionsOf(kind: Kind | "Locale", raw: unknown): Record<string, string | number | boolean> {
  const options: Record<string, string | number | boolean> = {};
  if (raw === undefined || raw === null) return options;
  const given = record("Intl", raw);
  for (const name of OPTION_NAMES[kind]) {
    const value = given[name];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") options[name] = text("Intl", value, MAX_TAG_CHARS);
    else if (typeof value === "number" || typeof value === "boolean") options[name] = value;
    else throw new TypeError(`Intl: option "${name}" should be a string, number or boolean`);
  }
  return options;
}

/**
 * A value from the guest: a number, a string, or `{n: "NaN" | "Infinity" | "-Infinity" | "-0"}`
 * and `{b: "123"}` (BigInt) for what JSON cannot carry.
 */
export function decodeValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const tagged = value as { n?: unknown; b?: unknown };
  if (tagged.n === "NaN") return NaN;
  if (tagged.n === "Infinity") return Infinity;
  if (tagged.n === "-Infinity") return -Infinity;
  if (tagged.n === "-0") return -0;
  if (typeof tagged.b === "string" && /^-?\d{1,4096}$/.test(tagged.b)) return BigInt(tagged.b);
  throw new TypeError("Intl: a value that is not a number, BigInt or string");
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new TypeError("Intl.ListFormat: the list should hold strings only");
  }
  return value;
}

/**
 * A segmentation in compact form: the segments' lengths, and for word granularity one
 * character per segment (`1` word-like, `0` not). The guest slices its own string.
 */
function segments(segmenter: Formatter, value: unknown): { lengths: number[]; wordLike?: string } {
  const input = text("Intl.Segmenter", value, Infinity);
  const lengths: number[] = [];
  let wordLike = "";
  const word = (segmenter.resolvedOptions() as { granularity: string }).granularity === "word";
  for (const part of (segmenter as unknown as Intl.Segmenter).segment(input)) {
    lengths.push(part.segment.length);
    if (word) wordLike += part.isWordLike ? "1" : "0";
  }
  return word ? { lengths, wordLike } : { lengths };
}

/** Everything a guest `Intl.Locale` shows, read once. */
function localeRecord(locale: Intl.Locale): Record<string, unknown> {
  const info = locale as Intl.Locale & Record<string, unknown>;
  const read = (name: string) => {
    const getter = info[`get${name[0]!.toUpperCase()}${name.slice(1)}`];
    try {
      return typeof getter === "function" ? getter.call(locale) : info[name];
    } catch {
      return undefined;
    }
  };
  return {
    tag: locale.toString(),
    baseName: locale.baseName,
    language: locale.language,
    script: locale.script,
    region: locale.region,
    calendar: locale.calendar,
    collation: locale.collation,
    hourCycle: locale.hourCycle,
    caseFirst: locale.caseFirst,
    numeric: locale.numeric,
    numberingSystem: locale.numberingSystem,
    maximized: locale.maximize().toString(),
    minimized: locale.minimize().toString(),
    calendars: read("calendars"),
    collations: read("collations"),
    hourCycles: read("hourCycles"),
    numberingSystems: read("numberingSystems"),
    textInfo: read("textInfo"),
    timeZones: read("timeZones"),
    weekInfo: read("weekInfo"),
  };
}

/**
 * The canonical form of a locale tag (a POSIX name such as `en_GB.UTF-8` is read as `en-GB`),
 * or a RangeError naming it.
 *
 * @example checkLocale("en-gb") // "en-GB"
 */
export function checkLocale(tag: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.replace(/[.@].*$/, "").replace(/_/g, "-"));
    if (canonical) return canonical;
  } catch {
    // reported below
  }
  throw new RangeError(`locale "${tag}" is not a BCP 47 language tag, such as "en-GB" or "de"`);
}
