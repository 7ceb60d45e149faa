import { describe, expect, it } from "vitest";
import { parseGuestJson } from "./guest-json.js";
import { MAX_JSON_DEPTH } from "../limits.js";

describe("parseGuestJson", () => {
  it("accepts text of exactly the limit and refuses one character more, before parsing", () => {
    expect(parseGuestJson(`"${"x".repeat(8)}"`, "op", 10)).toBe("xxxxxxxx");
    expect(() => parseGuestJson(`"${"x".repeat(9)}"`, "op", 10)).toThrow(
      new RangeError("op: the arguments are 11 characters of JSON, over the limit of 10"),
    );
  });

  it(`accepts nesting of exactly ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(() => parseGuestJson(nested(MAX_JSON_DEPTH), "op", 1e6)).not.toThrow();
    expect(() => parseGuestJson(nested(MAX_JSON_DEPTH + 1), "op", 1e6)).toThrow(
      `op: the arguments are nested ${MAX_JSON_DEPTH + 1} levels deep, over the limit of ${MAX_JSON_DEPTH}`,
    );
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ s: "[".repeat(200) + '\\"{{{' });
    expect(parseGuestJson(text, "op", 1e6)).toEqual({ s: "[".repeat(200) + '\\"{{{' });
  });

  it("drops __proto__ keys at every level", () => {
    const value = parseGuestJson('{"a": {"__proto__": {"x": 1}, "b": 2}, "__proto__": [1]}', "op", 1e6) as Record<
      string,
      Record<string, unknown>
    >;
    expect(value).toEqual({ a: { b: 2 } });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value.a, "__proto__")).toBe(false);
  });

  it("drops a __proto__ key spelled with \\u escapes, and keeps text without one as it is", () => {
    const value = parseGuestJson(
      '{"\\u005f_proto__": {"x": 1}, "a": {"__pro\\u0074o__": 1, "b": "\\u0041"}}',
      "op",
      1e6,
    ) as Record<string, unknown>;
    expect(value).toEqual({ a: { b: "A" } });
    expect(Object.hasOwn(value, "__proto__")).toBe(false);
    expect(parseGuestJson('{"proto": {"__proto": 1}}', "op", 1e6)).toEqual({ proto: { __proto: 1 } });
  });

  it("bad JSON is a SyntaxError", () => {
    expect(() => parseGuestJson("{nope", "op", 100)).toThrow(SyntaxError);
  });
});
