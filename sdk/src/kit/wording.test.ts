import { describe, expect, it } from "vitest";
import { age, bytesText, clip, durationText, howLong, joinLine, names, timeLeft } from "./wording.js";

const NOW = Date.parse("2024-05-10T12:00:00Z");
const ago = (seconds: number) => NOW - seconds * 1000;
const ahead = (seconds: number) => NOW + seconds * 1000;

describe("durationText", () => {
  it("uses the two largest non-zero units", () => {
    expect(durationText(0)).toBe("0s");
    expect(durationText(45)).toBe("45s");
    expect(durationText(60)).toBe("1m");
    expect(durationText(200)).toBe("3m 20s");
    expect(durationText(3600)).toBe("1h");
    expect(durationText(3601)).toBe("1h");
    expect(durationText(3725)).toBe("1h 2m");
    expect(durationText(90061)).toBe("1d 1h");
    expect(durationText(86400 * 3)).toBe("3d");
  });
  it("reads negative and non-finite spans as nothing", () => {
    expect(durationText(-5)).toBe("0s");
    expect(durationText(Number.NaN)).toBe("0s");
  });
});

describe("age", () => {
  it("says just now under a minute and for the future", () => {
    expect(age(ago(0), NOW)).toBe("just now");
    expect(age(ago(59), NOW)).toBe("just now");
    expect(age(ahead(300), NOW)).toBe("just now");
  });
  it("rounds down to one unit", () => {
    expect(age(ago(60), NOW)).toBe("1m ago");
    expect(age(ago(3 * 60 + 59), NOW)).toBe("3m ago");
    expect(age(ago(3599), NOW)).toBe("59m ago");
    expect(age(ago(3600), NOW)).toBe("1h ago");
    expect(age(ago(86399), NOW)).toBe("23h ago");
    expect(age(ago(86400 * 2), NOW)).toBe("2d ago");
    expect(age(ago(86400 * 13), NOW)).toBe("13d ago");
    expect(age(ago(86400 * 14), NOW)).toBe("2w ago");
    expect(age(ago(86400 * 60), NOW)).toBe("2mo ago");
    expect(age(ago(86400 * 800), NOW)).toBe("2y ago");
  });
  it("takes any date form", () => {
    expect(age("2024-05-10T11:57:00Z", NOW)).toBe("3m ago");
    expect(age(new Date(ago(7200)), NOW)).toBe("2h ago");
    expect(age(ago(120) / 1000, NOW)).toBe("2m ago"); // epoch seconds
  });
  it("throws a clear error for something that is not a date", () => {
    expect(() => age("soon", NOW)).toThrow('"soon" is not a date');
  });
});

describe("timeLeft", () => {
  it("counts seconds under a minute", () => {
    expect(timeLeft(ahead(45), NOW)).toBe("in 45s");
    expect(timeLeft(ahead(1), NOW)).toBe("in 1s");
  });
  it("rounds the last unit up", () => {
    expect(timeLeft(ahead(60), NOW)).toBe("in 1m");
    expect(timeLeft(ahead(61), NOW)).toBe("in 2m");
    expect(timeLeft(ahead(2 * 3600), NOW)).toBe("in 2h");
    expect(timeLeft(ahead(3725), NOW)).toBe("in 1h 3m");
    expect(timeLeft(ahead(86400 + 1), NOW)).toBe("in 1d 1h");
  });
  it("says now just after the moment and reads like age later", () => {
    expect(timeLeft(NOW, NOW)).toBe("now");
    expect(timeLeft(ago(59), NOW)).toBe("now");
    expect(timeLeft(ago(60), NOW)).toBe("1m ago");
  });
});

describe("howLong", () => {
  it("phrases the time since a start", () => {
    expect(howLong(ago(200), NOW)).toBe("3m 20s");
    expect(howLong(new Date(ago(3725)), NOW)).toBe("1h 2m");
  });
});

describe("clip", () => {
  it("keeps text that fits, exactly at the limit", () => {
    expect(clip("12345", 5)).toBe("12345");
  });
  it("ends text one past the limit in an ellipsis, within the limit", () => {
    expect(clip("123456", 5)).toBe("1234…");
    expect(clip("Fix the flaky login test on CI", 16)).toBe("Fix the flaky l…");
    expect(clip("one two three", 9)).toBe("one two…");
  });
  it("puts text on one line", () => {
    expect(clip("first\n\n  second\tthird ")).toBe("first second third");
  });
  it("never splits an emoji", () => {
    expect(clip("🚀🚀🚀", 3)).toBe("🚀🚀🚀");
    expect(clip("🚀🚀🚀🚀", 3)).toBe("🚀🚀…");
  });
  it("clips to nothing at 0", () => {
    expect(clip("abc", 0)).toBe("");
  });
});

describe("names", () => {
  it("phrases short lists", () => {
    expect(names([])).toBe("");
    expect(names(["Ana"])).toBe("Ana");
    expect(names(["Ana", "Bo"])).toBe("Ana and Bo");
    expect(names(["Ana", "Bo", "Cy"], 3)).toBe("Ana, Bo and Cy");
  });
  it("counts the rest past max", () => {
    expect(names(["Ana", "Bo", "Cy", "Di", "Ed"])).toBe("Ana, Bo and 3 others");
    expect(names(["Ana", "Bo", "Cy"])).toBe("Ana, Bo and 1 other");
    expect(names(["Ana", "Bo", "Cy"], 1)).toBe("Ana and 2 others");
  });
  it("leaves out empty and repeated names", () => {
    expect(names(["Ana", "", "Ana", " Bo "])).toBe("Ana and Bo");
  });
});

describe("joinLine", () => {
  it("joins the parts that are there", () => {
    expect(joinLine(["#412", "ana", null, undefined, false, "", "  ", "3m ago"])).toBe("#412 · ana · 3m ago");
  });
  it("keeps numbers, zero included, and takes another separator", () => {
    expect(joinLine([0, "open", Number.NaN], " ")).toBe("0 open");
  });
});

describe("bytesText", () => {
  it("reads sizes in 1024s, one decimal below 10 of a unit", () => {
    expect(bytesText(0)).toBe("0 B");
    expect(bytesText(1023)).toBe("1023 B");
    expect(bytesText(1024)).toBe("1.0 KB");
    expect(bytesText(1_572_864)).toBe("1.5 MB");
    expect(bytesText(10 * 1024 * 1024 - 1)).toBe("10 MB");
    expect(bytesText(432_013_312)).toBe("412 MB");
    expect(bytesText(5 * 1024 ** 5)).toBe("5120 TB");
    expect(bytesText(-5)).toBe("0 B");
  });
});
