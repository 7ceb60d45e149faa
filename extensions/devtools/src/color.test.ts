import { describe, expect, it } from "vitest";
import { contrastRatio, parseColor, toHex, toOklch } from "./color.js";

describe("parseColor", () => {
  it("reads hex, rgb, hsl, oklch and names to the same colour", () => {
    for (const text of [
      "#f00",
      "#ff0000",
      "#FF0000FF",
      "rgb(255, 0, 0)",
      "rgb(100% 0% 0%)",
      "rgba(255 0 0 / 1)",
      "hsl(0 100% 50%)",
      "hsl(360deg, 100%, 50%)",
      "hsl(1turn 100% 50%)",
      "red",
      "oklch(62.796% 0.25768 29.2339)",
    ]) {
      expect(toHex(parseColor(text)), text).toBe("#ff0000");
    }
    expect(toHex(parseColor("rgb(0 0 0 / 50%)"))).toBe("#00000080");
    expect(parseColor("oklch(0.7 0.4 150)").inGamut).toBe(false);
  });

  it("says what it cannot read", () => {
    expect(() => parseColor("teal-ish")).toThrow("write a colour as #rrggbb, rgb(…), hsl(…) or oklch(…)");
    expect(() => parseColor("rgb(1 2)")).toThrow("rgb() takes 3 values, got 2");
    expect(() => parseColor("hsl(x 1% 1%)")).toThrow('"x" is not a hue');
  });
});

describe("conversions", () => {
  it("gives OKLCH as CSS Color 4 does, and WCAG contrast ratios", () => {
    const [L, C, h] = toOklch(parseColor("#ff0000"));
    expect([L.toFixed(5), C.toFixed(5), h.toFixed(2)]).toEqual(["0.62796", "0.25768", "29.23"]);
    expect(contrastRatio(parseColor("#000"), parseColor("#fff"))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor("#fff"), parseColor("#fff"))).toBe(1);
  });
});
