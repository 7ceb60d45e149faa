import { describe, expect, it } from "vitest";
import {
  MAX_FORWARDED_STRING,
  anObject,
  anyLength,
  anything,
  finiteNumber,
  integer,
  oneOf,
  optionalText,
  text,
} from "./forwarded-fields.js";

describe("the forwarded fields", () => {
  it("take a string up to MAX_FORWARDED_STRING characters, and refuse one past it", () => {
    expect(text.problem("x".repeat(MAX_FORWARDED_STRING))).toBeUndefined();
    expect(text.problem("x".repeat(MAX_FORWARDED_STRING + 1))).toBe("at most 65536 characters");
    expect(optionalText.problem(3)).toBe("a string");
    expect(anyLength.problem("x".repeat(MAX_FORWARDED_STRING + 1))).toBeUndefined();
    expect(anyLength.problem({})).toBe("a string");
  });

  it("take finite numbers and integers only", () => {
    expect(finiteNumber.problem(1.5)).toBeUndefined();
    for (const bad of [Infinity, -Infinity, NaN, "1"]) expect(finiteNumber.problem(bad)).toBe("a finite number");
    expect(integer.problem(-3)).toBeUndefined();
    for (const bad of [2.5, Infinity, NaN, "2"]) expect(integer.problem(bad)).toBe("an integer");
  });

  it("take a plain object, any value, or one of a list", () => {
    expect(anObject.problem({ a: 1 })).toBeUndefined();
    for (const bad of [[], null, "o", 1]) expect(anObject.problem(bad)).toBe("an object");
    expect(anything.problem(null)).toBeUndefined();
    const level = oneOf(["info", "warn"] as const);
    expect(level.problem("warn")).toBeUndefined();
    expect(level.problem("trace")).toBe("one of info, warn");
    expect(level.problem(["info"])).toBe("one of info, warn");
  });

  it("say which may be missing and where null is a value", () => {
    expect([text.optional, optionalText.optional, finiteNumber.optional, anything.optional]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect([text.keepsNull, optionalText.keepsNull, anything.keepsNull]).toEqual([false, false, true]);
  });
});
