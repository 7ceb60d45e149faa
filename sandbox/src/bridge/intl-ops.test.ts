/**
 * The guest's Intl and locale methods give Node's own results, with the sandbox's locale and
 * time zone as defaults; each formatter is one host object made once; the ops check what they get.
 */
import { afterAll, describe, expect, it } from "vitest";
import { IntlOps, MAX_INTL_OBJECTS, checkLocale } from "./intl-ops.js";
import { Sandbox } from "../sandbox.js";
import { UPDATE, optionsFor, recorder } from "../sandbox.fixtures.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

/** Runs `body` (returns a value) in a fresh sandbox with these defaults. */
async function inGuest(
  body: string,
  env: { locale?: string; timeZone?: string } = { locale: "en-US", timeZone: "UTC" },
): Promise<any> {
  const sandbox = await Sandbox.create(optionsFor(`module.exports = { update() { ${body} } };`), recorder(), env);
  sandboxes.push(sandbox);
  await sandbox.load();
  return sandbox.invoke(UPDATE);
}

/** The same expression evaluated by Node (the host), JSON-copied like a guest result. */
function inNode(expression: string): unknown {
  return JSON.parse(JSON.stringify(new Function(`return (${expression});`)()));
}

const SAME_AS_NODE = [
  `(1234567.891).toLocaleString("de-DE")`,
  `(1234.5).toLocaleString("en-IN", { style: "currency", currency: "INR" })`,
  `(12345678901234567890n).toLocaleString("fr-FR")`,
  `[NaN, -0, Infinity].map((n) => n.toLocaleString("en-US"))`,
  `["B", "a", "c", "ä"].sort((x, y) => x.localeCompare(y, "de"))`,
  `["item10", "item9", "Item1"].sort(new Intl.Collator("en", { numeric: true, sensitivity: "base" }).compare)`,
  `new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(Date.UTC(2024, 2, 10, 7, 30)))`,
  `new Intl.DateTimeFormat("ja-JP", { dateStyle: "full", timeStyle: "long", timeZone: "Asia/Tokyo" }).format(0)`,
  `new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London" }).formatRange(new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 5)))`,
  `new Intl.DateTimeFormat("de", { timeZone: "Europe/Berlin", timeZoneName: "short" }).resolvedOptions()`,
  `new Date(Date.UTC(2024, 6, 4, 15)).toLocaleDateString("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" })`,
  `new Date(Date.UTC(2024, 6, 4, 15)).toLocaleTimeString("fr-FR", { timeZone: "Asia/Kolkata" })`,
  `new Date(NaN).toLocaleString()`,
  `new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 }).format(1234567)`,
  `new Intl.NumberFormat("de-DE", { style: "unit", unit: "kilobyte", unitDisplay: "long" }).formatToParts(1536.25)`,
  `new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" }).formatRange(3, 5)`,
  `new Intl.NumberFormat("en-US", { maximumFractionDigits: 20 }).format("1234567890.12345678901234567890")`,
  `new Intl.RelativeTimeFormat("es", { numeric: "auto" }).format(-1, "day")`,
  `new Intl.RelativeTimeFormat("en").formatToParts(3, "hours")`,
  `["en", "ar", "ru"].map((l) => [0, 1, 2, 5].map((n) => new Intl.PluralRules(l).select(n)))`,
  `new Intl.PluralRules("en", { type: "ordinal" }).select(22)`,
  `new Intl.ListFormat("en", { type: "disjunction" }).format(["a", "b", "c"])`,
  `new Intl.ListFormat("de").formatToParts(["x", "y"])`,
  `[...new Intl.Segmenter("en", { granularity: "grapheme" }).segment("e\\u0301👨‍👩‍👧x")].map((s) => [s.segment, s.index])`,
  `[...new Intl.Segmenter("en", { granularity: "word" }).segment("Hello, world!")].map((s) => [s.segment, s.index, s.isWordLike])`,
  `new Intl.DisplayNames(["en"], { type: "region" }).of("DE")`,
  `new Intl.DisplayNames("fr", { type: "currency" }).of("JPY")`,
  `(() => { const l = new Intl.Locale("en", { region: "GB", hourCycle: "h12" }); return [l.toString(), l.baseName, l.region, l.hourCycle, l.maximize().toString(), new Intl.Locale("zh-Hant-TW").minimize().toString()]; })()`,
  `Intl.getCanonicalLocales(["EN-us", "de-de"])`,
  `Intl.supportedValuesOf("timeZone").length`,
  `Intl.DateTimeFormat.supportedLocalesOf(["de-AT", "xx-YY"])`,
  `["istanbul".toLocaleUpperCase("tr"), "İSTANBUL".toLocaleLowerCase("tr-TR"), "straße".toLocaleUpperCase("en")]`,
  `[1234.5, new Date(Date.UTC(2024, 0, 2)), null, 7].toLocaleString("de-DE", { timeZone: "UTC" })`,
  `new Float64Array([1234.5, 0.25]).toLocaleString("de-DE")`,
  `Object.prototype.toString.call(new Intl.NumberFormat())`,
  `Object.getOwnPropertyNames(Intl).filter((k) => typeof Intl[k] === "function").map((k) => k + " " + Intl[k].name).filter((k) => !k.startsWith("DurationFormat")).sort()`,
  `[Intl.DateTimeFormat("en", { timeZone: "UTC" }).format(0), Intl.NumberFormat("de").format(1.5), Intl.Collator("en").compare("a", "b"), Intl.DateTimeFormat() instanceof Intl.DateTimeFormat]`,
];

describe("Intl in the guest", () => {
  it("gives Node's results for every kind of formatter and every locale method", async () => {
    const guest = await inGuest(`return [${SAME_AS_NODE.join(",\n")}];`);
    SAME_AS_NODE.forEach((expression, i) => expect(guest[i], expression).toEqual(inNode(expression)));
  });

  it("has ECMA-402's function names, lengths and non-constructible methods", async () => {
    const guest = await inGuest(`
      const isConstructor = (f) => { try { Reflect.construct(String, [], f); return true; } catch { return false; } };
      const getter = (C, name) => Object.getOwnPropertyDescriptor(C.prototype, name).get;
      const kinds = ["DateTimeFormat", "NumberFormat", "RelativeTimeFormat", "PluralRules", "ListFormat", "Collator", "Segmenter", "DisplayNames", "Locale"];
      return [
        kinds.map((k) => Intl[k].length),
        [Intl.Collator.prototype.resolvedOptions.name, isConstructor(Intl.Collator.prototype.resolvedOptions)],
        [Intl.NumberFormat.supportedLocalesOf.name, Intl.NumberFormat.supportedLocalesOf.length, isConstructor(Intl.NumberFormat.supportedLocalesOf)],
        [getter(Intl.NumberFormat, "format").name, getter(Intl.Collator, "compare").name, getter(Intl.Locale, "baseName").name],
        [Object.hasOwn(new Intl.NumberFormat().format, "name"), new Intl.NumberFormat().format.length, new Intl.Collator().compare.length],
        Intl.Locale.prototype.getCalendars.name,
        Object.getOwnPropertyNames(Object.getPrototypeOf(new Intl.Segmenter().segment("a"))),
      ];`);
    expect(guest).toEqual([
      [0, 0, 0, 0, 0, 0, 0, 2, 1],
      ["resolvedOptions", false],
      ["supportedLocalesOf", 1, false],
      ["get format", "get compare", "get baseName"],
      [false, 1, 2],
      "getCalendars",
      ["containing"],
    ]);
  });

  it('reads null as false for the boolean options (useGrouping: null) and as "null" elsewhere, as Node', async () => {
    const guest = await inGuest(`
      let style; try { new Intl.NumberFormat("en", { style: null }); } catch (e) { style = [e.name, e.message]; }
      return [
        new Intl.NumberFormat("en", { useGrouping: null }).format(12345),
        new Intl.NumberFormat("en", { useGrouping: null }).resolvedOptions().useGrouping,
        new Intl.DateTimeFormat("en", { hour12: null, hour: "numeric" }).resolvedOptions().hour12,
        new Intl.Collator("en", { numeric: null, ignorePunctuation: null }).resolvedOptions().numeric,
        style,
      ];`);
    expect(guest).toEqual([
      "12345",
      false,
      false,
      false,
      ["RangeError", "Value null out of range for Intl.NumberFormat options property style"],
    ]);
  });

  it("uses the sandbox's locale and time zone when given none", async () => {
    const guest = await inGuest(
      `const o = new Intl.DateTimeFormat().resolvedOptions();
       return [o.locale, o.timeZone, new Date(0).toLocaleString(), (1234.5).toLocaleString(), new Intl.NumberFormat().resolvedOptions().locale, "i".toLocaleUpperCase()];`,
      { locale: "tr-TR", timeZone: "Asia/Tokyo" },
    );
    expect(guest).toEqual([
      "tr-TR",
      "Asia/Tokyo",
      new Date(0).toLocaleString("tr-TR", { timeZone: "Asia/Tokyo" }),
      (1234.5).toLocaleString("tr-TR"),
      "tr-TR",
      "İ",
    ]);
  });

  it("throws the same errors as Node, as guest errors of the same class", async () => {
    const probe = (expression: string) =>
      `(() => { try { ${expression}; return "no error"; } catch (e) { return [e instanceof RangeError, e instanceof TypeError, e.message]; } })()`;
    const cases = [
      `new Intl.DateTimeFormat("en", { timeZone: "Nowhere/City" })`,
      `new Intl.NumberFormat("en", { style: "currency" })`,
      `new Intl.DateTimeFormat("not a locale!")`,
      `new Date(0).toLocaleDateString("en", { timeStyle: "short" })`,
    ];
    const guest = await inGuest(`return [${cases.map(probe).join(",")}];`);
    const node = cases.map((expression) => inNode(probe(expression)));
    expect(guest.map((g: unknown[]) => g.slice(0, 2))).toEqual(node.map((n) => (n as unknown[]).slice(0, 2)));
    expect(guest[0][2]).toBe((node[0] as string[])[2]);
    expect(guest[1][2]).toBe((node[1] as string[])[2]);
  });

  it("keeps one host object per formatter: 2,000 formatted dates and numbers stay inside one slice", async () => {
    const guest = await inGuest(`
      let out = "";
      for (let i = 0; i < 1000; i++) out = new Date(i * 86400000).toLocaleDateString("en-GB") + (i * 1.5).toLocaleString("de");
      return out;`);
    expect(guest).toBe(
      new Date(999 * 86400000).toLocaleDateString("en-GB", { timeZone: "UTC" }) + (999 * 1.5).toLocaleString("de"),
    );
  });

  it("makes a formatter again when the host dropped it (more than the host keeps)", async () => {
    const guest = await inGuest(`
      const first = new Intl.NumberFormat("en", { minimumFractionDigits: 0 });
      for (let i = 1; i <= ${MAX_INTL_OBJECTS + 10}; i++) new Intl.NumberFormat("en", { minimumIntegerDigits: 1 + (i % 21), maximumFractionDigits: i % 20 + 1, minimumFractionDigits: 0 });
      return first.format(1234.5);`);
    expect(guest).toBe("1,234.5");
  });
});

describe("the intl ops", () => {
  it("make an object once per kind, locales and options, and keep at most MAX_INTL_OBJECTS", () => {
    const intl = new IntlOps({ locale: "en-US" });
    const a = intl.make({ kind: "NumberFormat", locales: [], options: { style: "percent" } });
    expect(intl.make({ kind: "NumberFormat", locales: ["en-US"], options: { style: "percent" } }).id).toBe(a.id);
    expect(intl.make({ kind: "NumberFormat", locales: ["de-DE"], options: { style: "percent" } }).id).not.toBe(a.id);
    expect(intl.make({ kind: "NumberFormat", locales: [], options: { style: "percent", bogus: 1 } }).id).toBe(a.id);
    expect(intl.call({ id: a.id, method: "format", args: [0.25] })).toBe("25%");
    for (let i = 0; i < MAX_INTL_OBJECTS; i++)
      intl.make({
        kind: "NumberFormat",
        locales: [],
        options: { minimumIntegerDigits: 1 + (i % 21), maximumFractionDigits: Math.floor(i / 21) % 21 },
      });
    expect(() => intl.call({ id: a.id, method: "format", args: [1] })).toThrow(
      expect.objectContaining({ name: "StaleIntlObject" }),
    );
  });

  it("refuse unknown kinds, methods and values, and oversized locale lists", () => {
    const intl = new IntlOps();
    const { id } = intl.make({ kind: "Collator", locales: ["en"] });
    expect(() => intl.make({ kind: "constructor" })).toThrow('intl.make: "constructor" is not an Intl kind');
    expect(() => intl.make({ kind: "__proto__" })).toThrow('intl.make: "__proto__" is not an Intl kind');
    expect(() => intl.call({ id, method: "constructor", args: [] })).toThrow(
      'intl.call: Intl.Collator has no method "constructor"',
    );
    expect(() => intl.call({ id, method: "resolvedOptions", args: [] })).toThrow("has no method");
    expect(() => intl.make({ kind: "NumberFormat", options: { style: { toString: 1 } } })).toThrow(
      'option "style" should be a string',
    );
    expect(() => intl.make({ kind: "NumberFormat", locales: Array(65).fill("en") })).toThrow(
      "65 locales, over the limit of 64",
    );
    expect(() => intl.make({ kind: "NumberFormat", locales: ["en"].concat(Array(63).fill("de")) })).not.toThrow();
    expect(() => intl.call({ id: 9999, method: "compare", args: ["a", "b"] })).toThrow("no longer kept");
    expect(() => intl.query({ what: "eval" })).toThrow('"eval" is not a query');
  });

  it("check the pool's locale", () => {
    expect(checkLocale("en-gb")).toBe("en-GB");
    expect(checkLocale("de_AT.UTF-8")).toBe("de-AT");
    expect(() => checkLocale("not a locale")).toThrow('locale "not a locale" is not a BCP 47 language tag');
  });
});
