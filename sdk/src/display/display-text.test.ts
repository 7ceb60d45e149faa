import { describe, expect, it } from "vitest";
import { cutToLength, displayText, escapeForDisplay, findUnsafeCharacter, isDisplaySafe } from "./display-text.js";

describe("the display-text rule", () => {
  it("finds C0, DEL, C1, bidi overrides, isolates, marks and lone surrogates", () => {
    for (const char of ["\u0000", "\u001b", "\u0007", "\u007f", "\u0085", "\u009b", "\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\ud800", "\udc00"]) {
      expect(isDisplaySafe(`a${char}b`), JSON.stringify(char)).toBe(false);
    }
    expect(findUnsafeCharacter("ab\u202ecd")).toEqual({ index: 2, codePoint: 0x202e, name: "U+202E" });
  });

  it("keeps real text: Arabic, Hebrew, emoji, CJK, and line breaks where allowed", () => {
    for (const text of ["مرحبا", "שלום", "🚀 deploy", "部署", "café"]) expect(isDisplaySafe(text)).toBe(true);
    expect(isDisplaySafe("a\nb\tc")).toBe(false);
    expect(isDisplaySafe("a\nb\tc", { multiline: true })).toBe(true);
    expect(isDisplaySafe("a\rb", { multiline: true })).toBe(false);
  });

  it("escapes every unsafe character into visible inert text", () => {
    expect(escapeForDisplay("\u001b]0;pwned\u0007\u001b[1A\u001b[2K")).toBe("\\u{1b}]0;pwned\\u{7}\\u{1b}[1A\\u{1b}[2K");
    expect(escapeForDisplay("invoice\u202Eexe.pdf")).toBe("invoice\\u{202e}exe.pdf");
    expect(escapeForDisplay("line\nnext")).toBe("line\\u{a}next");
    expect(escapeForDisplay("line\nnext", { multiline: true })).toBe("line\nnext");
    expect(escapeForDisplay(42)).toBe("42");
    const escaped = escapeForDisplay("\u001b[8m hidden");
    expect(isDisplaySafe(escaped)).toBe(true);
  });

  it("clips at the cap with an ellipsis, never splitting a surrogate pair", () => {
    expect(cutToLength("abcdef", 6)).toBe("abcdef");
    expect(cutToLength("abcdefg", 6)).toBe("abcde…");
    expect(cutToLength("ab🚀cd", 4)).toBe("ab…");
    expect(escapeForDisplay("x".repeat(1_000_000), { max: 200 })).toHaveLength(200);
  });

  it("refuses unsafe text at entry with a message naming the character", () => {
    expect(displayText({ max: 5 }).safeParse("hello").success).toBe(true);
    expect(displayText({ max: 5 }).safeParse("hello!").success).toBe(false);
    const result = displayText().safeParse("a\u202eb");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("contains U+202E (a control or bidi character) at 1");
  });
});
