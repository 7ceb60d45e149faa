import { describe, expect, it } from "vitest";
import {
  cutToLength,
  displayText,
  escapeForDisplay,
  findUnsafeCharacter,
  isDisplaySafe,
  jsonForDisplay,
} from "./display-text.js";
import { parseManifest } from "../processing/manifest.js";
import { processPayload } from "../processing/payload.js";

describe("the display-text rule", () => {
  it("finds C0, DEL, C1, bidi overrides, isolates, marks and lone surrogates", () => {
    for (const char of [
      "\u0000",
      "\u001b",
      "\u0007",
      "\u007f",
      "\u0085",
      "\u009b",
      "\u202a",
      "\u202e",
      "\u2066",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
      "\ud800",
      "\udc00",
    ]) {
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
    expect(escapeForDisplay("\u001b]0;pwned\u0007\u001b[1A\u001b[2K")).toBe(
      "\\u{1b}]0;pwned\\u{7}\\u{1b}[1A\\u{1b}[2K",
    );
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
    expect(result.error?.issues[0]?.message).toBe(
      "should not contain U+202E (a control or bidi character; found at 1)",
    );
  });
});

const PAYLOAD = {
  v: 1,
  id: "webhook/x",
  seq: 1,
  emittedAt: "2026-01-01T00:00:00.000Z",
  title: "Deploy",
  layout: "progress",
  data: { fraction: 0.5 },
};

describe("checked where strings enter (red-team strings)", () => {
  const manifest = (svc: object) => ({ name: "x", version: "1.0.0", svc: { id: "com.example.x", title: "X", ...svc } });

  it("a manifest description ending in \\u001b[8m (hides the install prompt) is refused", () => {
    const r = parseManifest(manifest({ description: "Shows your deploys.\u001b[8m" }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe(
      '"svc.description" should not contain U+001B (a control or bidi character; found at 19)',
    );
  });

  it("a manifest title with a bidi override, and one over 100 characters, are refused; a plain one is kept", () => {
    expect(parseManifest(manifest({ title: "invoice\u202Eexe.pdf" })).ok).toBe(false);
    expect(parseManifest(manifest({ title: "x".repeat(100) })).ok).toBe(true);
    expect(parseManifest(manifest({ title: "x".repeat(101) })).ok).toBe(false);
    expect(parseManifest(manifest({ description: "line one\nline two" })).ok).toBe(true);
  });

  it("a payload title \\u001b]0;pwned\\u0007\\u001b[1A\\u001b[2K is refused, naming the field", () => {
    const r = processPayload({ ...PAYLOAD, title: "\u001b]0;pwned\u0007\u001b[1A\u001b[2K" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe('"title" should not contain U+001B (a control or bidi character; found at 0)');
  });

  it("a pushed step \\u001b[2J is refused", () => {
    const r = processPayload({ ...PAYLOAD, data: { fraction: 0.5, step: "\u001b[2J" } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe('"data.step" should not contain U+001B (a control or bidi character; found at 0)');
    expect(processPayload(PAYLOAD).ok).toBe(true);
  });
});

describe("jsonForDisplay", () => {
  it("escapes what JSON.stringify leaves raw (bidi, C1) and parses back to the same value", () => {
    const value = { t: "a\u202Eb\u0085c\u001b", n: 1 };
    const json = jsonForDisplay(value);
    expect(json).toBe('{"t":"a\\u202eb\\u0085c\\u001b","n":1}');
    expect(isDisplaySafe(json)).toBe(true);
    expect(JSON.parse(json)).toEqual(value);
  });
});
