import { describe, expect, it } from "vitest";
import { formatBlocks } from "./format-blocks.js";

const NOW = Date.parse("2026-01-01T12:00:00Z");

describe("formatBlocks", () => {
  it("shows every block type, tones with a mark, table values formatted and dates relative", () => {
    expect(
      formatBlocks(
        [
          { type: "status", text: "Valid", tone: "positive" },
          { type: "status", text: "Careful", tone: "warning" },
          { type: "status", text: "Broken", tone: "critical" },
          { type: "status", text: "Note", tone: "neutral" },
          { type: "text", value: "two\nlines" },
          { type: "code", text: '{\n  "a": 1\n}', language: "json" },
          {
            type: "table",
            rows: [
              { name: "Expires", value: { type: "date", value: "2026-01-01T14:05:00Z" } },
              { name: "Size", value: { type: "number", value: 1284, unit: "B" } },
              { name: "Spec", value: "RFC 7519", url: "https://www.rfc-editor.org/rfc/rfc7519" },
            ],
          },
          { type: "files", paths: ["/a/b.txt", "/a/c.txt"] },
          { type: "image", path: "/a/i.png" },
          { type: "color", hex: "#ff8800" },
        ],
        { now: NOW },
      ),
    ).toEqual([
      "✔ Valid",
      "! Careful",
      "✘ Broken",
      "· Note",
      "two\nlines",
      '{\n  "a": 1\n}',
      "Expires  in 2h 05m",
      "Size     1,284 B",
      "Spec     RFC 7519  <https://www.rfc-editor.org/rfc/rfc7519>",
      "/a/b.txt",
      "/a/c.txt",
      "image /a/i.png",
      "■ #ff8800",
    ]);
  });

  it("makes an extension's control characters inert and draws a swatch in colour when asked", () => {
    expect(formatBlocks([{ type: "status", text: "\u001b[2Jgone\u202Etxt.exe", tone: "neutral" }])).toEqual([
      "· \\u{1b}[2Jgone\\u{202e}txt.exe",
    ]);
    expect(formatBlocks([{ type: "code", text: "a\u001b]0;title\u0007\nb" }])).toEqual(["a\\u{1b}]0;title\\u{7}\nb"]);
    expect(formatBlocks([{ type: "color", hex: "#f80" }], { color: true })).toEqual([
      "\u001b[38;2;255;136;0m■\u001b[39m #f80",
    ]);
  });
});
