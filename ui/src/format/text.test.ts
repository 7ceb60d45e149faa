import { describe, expect, it } from "vitest";
import { CAPS, safeHref, shown, shownLines } from "./text.js";

describe("shown", () => {
  it("makes controls and bidi overrides visible and inert", () => {
    expect(shown("invoice\u202Eexe.pdf")).toBe("invoice\\u{202e}exe.pdf");
    expect(shown("a\nb")).toBe("a\\u{a}b");
    expect(shownLines("a\nb")).toBe("a\nb");
  });
  it("clips at the cap, and not below it", () => {
    expect(shown("x".repeat(CAPS.title), CAPS.title)).toBe("x".repeat(CAPS.title));
    expect(shown("x".repeat(CAPS.title + 1), CAPS.title)).toBe(`${"x".repeat(CAPS.title - 1)}…`);
    expect(shown("x".repeat(1_048_576), CAPS.title)).toHaveLength(CAPS.title);
  });
  it("leaves markup as text (the view binds text only)", () => {
    expect(shown("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>");
  });
});

describe("safeHref", () => {
  it("keeps http and https pages only", () => {
    expect(safeHref("https://example.com/a?b")).toBe("https://example.com/a?b");
    expect(safeHref("http://example.com")).toBe("http://example.com/");
    for (const bad of [
      "javascript:alert(1)",
      " javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "vbscript:x",
      "/relative",
      "",
      42,
    ]) {
      expect(safeHref(bad)).toBeUndefined();
    }
  });
});
