import { describe, expect, it } from "vitest";
import { clipboardKinds, MAX_CLIPBOARD_CHARS } from "./clipboard-kinds.js";

describe("clipboardKinds", () => {
  it("knows each declared kind", () => {
    expect(clipboardKinds(' {"a": [1, 2]} ')).toEqual(["json"]);
    expect(clipboardKinds("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln")).toEqual(["jwt"]);
    expect(clipboardKinds("Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.")).toEqual(["jwt"]);
    expect(clipboardKinds("https://example.com/a?b=1")).toEqual(["url"]);
    expect(clipboardKinds("aGVsbG8gd29ybGQh")).toEqual(["base64"]);
    expect(clipboardKinds("1767225600")).toEqual(["timestamp"]);
    expect(clipboardKinds("1767225600123")).toEqual(["timestamp"]);
    expect(clipboardKinds("2026-01-01T12:00:00Z")).toEqual(["timestamp"]);
    expect(clipboardKinds("#ff8800")).toEqual(["color"]);
    expect(clipboardKinds("oklch(70% 0.1 200)")).toEqual(["color"]);
    expect(clipboardKinds("0190a6c2-7d2e-7c3f-9a1b-2c3d4e5f6a7b")).toEqual(["uuid"]);
    expect(clipboardKinds("curl -X POST https://x.example")).toEqual(["curl"]);
  });

  it("offers nothing for ordinary text, broken JSON, short words or oversized text", () => {
    for (const text of ["", "  ", "hello there", "{not json", "password", "12345", "Sentence with words."])
      expect(clipboardKinds(text), text).toEqual([]);
    expect(clipboardKinds(`[${"1,".repeat(MAX_CLIPBOARD_CHARS / 2)}1]`)).toEqual([]);
  });
});
