import { describe, expect, it } from "vitest";
import { currency, date, duration, number, percent, text } from "./values.js";
import { textBlockSchema, typedValueSchema } from "../schemas/index.js";

const valid = (value: unknown) => typedValueSchema.safeParse(value).success;

describe("number", () => {
  it("makes a number, with a unit when given", () => {
    expect(number(1284)).toEqual({ type: "number", value: 1284 });
    expect(number(1284, "req/s")).toEqual({ type: "number", value: 1284, unit: "req/s" });
    expect(valid(number(0))).toBe(true);
  });
  it("leaves a non-finite number for the check to refuse", () => {
    expect(valid(number(Number.POSITIVE_INFINITY))).toBe(false);
  });
});

describe("currency", () => {
  it("takes major units and upper-cases the code", () => {
    expect(currency(1250.5, " eur ")).toEqual({ type: "currency", value: { amount: 1250.5, currency: "EUR" } });
    expect(currency(3)).toEqual({ type: "currency", value: { amount: 3, currency: "USD" } });
    expect(valid(currency(-12, "gbp"))).toBe(true);
  });
  it("keeps a code that is not three letters for the check to refuse", () => {
    expect(valid(currency(1, "EURO"))).toBe(false);
  });
});

describe("percent", () => {
  it("stores a fraction", () => {
    expect(percent(0.42)).toEqual({ type: "percent", value: 0.42 });
    expect(percent(1.5)).toEqual({ type: "percent", value: 1.5 });
  });
  it("divides a part by its whole, and a whole of 0 gives 0", () => {
    expect(percent(42, 100)).toEqual({ type: "percent", value: 0.42 });
    expect(percent(5, 0)).toEqual({ type: "percent", value: 0 });
  });
});

describe("duration", () => {
  it("is seconds, and a negative span shows as 0", () => {
    expect(duration(11520)).toEqual({ type: "duration", value: 11520 });
    expect(duration(0)).toEqual({ type: "duration", value: 0 });
    expect(duration(-3)).toEqual({ type: "duration", value: 0 });
    expect(valid(duration(-3))).toBe(true);
  });
  it("leaves NaN for the check to refuse", () => {
    expect(valid(duration(Number.NaN))).toBe(false);
  });
});

describe("date", () => {
  const iso = "2025-03-01T09:30:00.000Z";
  const ms = Date.parse(iso);
  it("takes a Date, an ISO string, epoch seconds and epoch milliseconds, all to one form", () => {
    expect(date(new Date(ms))).toEqual({ type: "date", value: iso });
    expect(date("2025-03-01T10:30:00+01:00")).toEqual({ type: "date", value: iso });
    expect(date(ms / 1000)).toEqual({ type: "date", value: iso });
    expect(date(ms)).toEqual({ type: "date", value: iso });
    expect(valid(date(ms))).toBe(true);
  });
  it("reads 1e12 as milliseconds, at the boundary", () => {
    expect(date(1e12).value).toBe("2001-09-09T01:46:40.000Z");
  });
  it("reads just under 1e12 as seconds: a year too far for a date, said plainly", () => {
    expect(() => date(1e12 - 1)).toThrow(
      "999999999999 read as epoch seconds is the year 33658; dates must fall in the years 0–9999",
    );
  });
  it("reads small numbers as seconds", () => {
    expect(date(0).value).toBe("1970-01-01T00:00:00.000Z");
    expect(date(1).value).toBe("1970-01-01T00:00:01.000Z");
    expect(date(1.5).value).toBe("1970-01-01T00:00:01.500Z");
  });
  it("refuses what is not a moment, naming it", () => {
    expect(() => date("next tuesday")).toThrow('"next tuesday" is not a date: pass a Date, an ISO 8601 string');
    expect(() => date("")).toThrow('"" is not a date');
    expect(() => date(new Date(Number.NaN))).toThrow("an invalid Date is not a date");
    expect(() => date(Number.NaN)).toThrow("NaN is not a date");
    expect(() => date(null as unknown as number)).toThrow("null is not a date");
  });
});

describe("text", () => {
  it("is a text value and a text block at once", () => {
    expect(text("main · 3 ahead")).toEqual({ type: "text", value: "main · 3 ahead" });
    expect(valid(text("x"))).toBe(true);
    expect(textBlockSchema.safeParse(text("x")).success).toBe(true);
  });
  it("spells numbers and booleans, and refuses objects", () => {
    expect(text(42)).toEqual({ type: "text", value: "42" });
    expect(text(false)).toEqual({ type: "text", value: "false" });
    expect(() => text({} as unknown as string)).toThrow("text() takes a string, not an object");
  });
});
