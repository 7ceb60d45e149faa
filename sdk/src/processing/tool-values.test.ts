import { describe, expect, it } from "vitest";
import { fieldSchema, type Field } from "../schemas/index.js";
import { normalizeToolValues } from "./tool-values.js";

/** Fields decoded one by one: more than a spec's 8, to test every kind in one go. */
function specWith(fields: unknown[]): { fields: Field[] } {
  return { fields: fields.map((field) => fieldSchema.parse(field)) };
}

const spec = specWith([
  { id: "text", type: "text" },
  { id: "textD", type: "text", default: "hello" },
  { id: "code", type: "code", language: "json" },
  { id: "one", type: "file" },
  { id: "many", type: "file", multiple: true },
  {
    id: "pick",
    type: "choice",
    options: [
      { id: "a", title: "A" },
      { id: "b", title: "B" },
    ],
  },
  {
    id: "pickD",
    type: "choice",
    options: [
      { id: "a", title: "A" },
      { id: "b", title: "B" },
    ],
    default: "b",
  },
  { id: "flag", type: "toggle" },
  { id: "flagD", type: "toggle", default: true },
  { id: "n", type: "number" },
  { id: "nMin", type: "number", min: 5, max: 10 },
  { id: "nNeg", type: "number", max: -3 },
  { id: "nD", type: "number", min: 0, max: 100, default: 50 },
  { id: "kv", type: "pairs" },
  { id: "kvD", type: "pairs", default: [{ name: "a", value: "1" }] },
]);

const empties = {
  text: "",
  textD: "hello",
  code: "",
  one: [],
  many: [],
  pick: "a",
  pickD: "b",
  flag: false,
  flagD: true,
  n: 0,
  nMin: 5,
  nNeg: -3,
  nD: 50,
  kv: [],
  kvD: [{ name: "a", value: "1" }],
};

describe("normalizeToolValues", () => {
  it("falls back to the default, then to empty, for every missing value", () => {
    expect(normalizeToolValues(spec, {})).toEqual(empties);
    expect(normalizeToolValues(spec, undefined)).toEqual(empties);
    expect(normalizeToolValues(spec, "junk")).toEqual(empties);
    expect(normalizeToolValues(spec, [1, 2])).toEqual(empties);
  });

  it("falls back the same way for mistyped values", () => {
    const mistyped = Object.fromEntries(Object.keys(empties).map((id) => [id, { wrong: true }]));
    expect(normalizeToolValues(spec, mistyped)).toEqual(empties);
    expect(normalizeToolValues(spec, { n: "5", flag: "true", pick: "c", nD: Number.NaN })).toMatchObject({
      n: 0,
      flag: false,
      pick: "a",
      nD: 50,
    });
  });

  it("keeps well-typed values", () => {
    const values = { text: "x", code: "{}", pick: "b", flag: true, n: -7.5, nMin: 7, kv: [{ name: "h", value: "v" }] };
    expect(normalizeToolValues(spec, values)).toMatchObject(values);
  });

  it("clamps numbers to min and max", () => {
    expect(normalizeToolValues(spec, { nMin: 4.9, nD: 101, nNeg: 0 })).toMatchObject({ nMin: 5, nD: 100, nNeg: -3 });
    expect(normalizeToolValues(spec, { nMin: 10, nD: 0 })).toMatchObject({ nMin: 10, nD: 0 });
  });

  it("keeps the first file of a single-file field, every file of a multiple one", () => {
    const files = ["/a.png", "/b.png"];
    expect(normalizeToolValues(spec, { one: files, many: files })).toMatchObject({ one: ["/a.png"], many: files });
    expect(normalizeToolValues(spec, { many: ["/a", 3, "rel/b", "/c"] }).many).toEqual(["/a", "/c"]);
    expect(normalizeToolValues(spec, { one: "/a.png" }).one).toEqual([]);
  });

  it("drops unknown keys, including __proto__", () => {
    const values = JSON.parse('{"text":"x","nope":1,"__proto__":{"polluted":true}}');
    const normalized = normalizeToolValues(spec, values);
    expect(Object.keys(normalized)).toEqual(Object.keys(empties));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("treats a field named __proto__ as a plain key", () => {
    const odd = specWith([{ id: "__proto__", type: "text", default: "d" }]);
    const normalized = normalizeToolValues(odd, JSON.parse('{"__proto__":"given"}'));
    expect(Object.getOwnPropertyDescriptor(normalized, "__proto__")?.value).toBe("given");
    expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
  });

  it("never throws, even on getters that throw or proxies", () => {
    const hostile = {
      get text(): string {
        throw new Error("boom");
      },
    };
    expect(normalizeToolValues(spec, hostile).text).toBe("");
    const proxy = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error("trap");
        },
      },
    );
    expect(normalizeToolValues(spec, proxy)).toEqual(empties);
  });
});
