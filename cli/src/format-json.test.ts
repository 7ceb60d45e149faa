import { describe, expect, it } from "vitest";
import { formatJson } from "./format-json.js";

describe("formatJson", () => {
  it("keeps what fits on one line", () => {
    expect(formatJson({ a: 1, b: [1, 2], c: "x", d: null })).toBe('{"a": 1, "b": [1, 2], "c": "x", "d": null}');
  });

  it("opens up what does not fit, member by member, and reads back as the same value", () => {
    const value = { title: "t".repeat(60), data: { items: [{ id: "a", title: "b".repeat(70) }, { id: "c" }] } };
    const text = formatJson(value);
    expect(text).toBe(
      [
        "{",
        `  "title": "${"t".repeat(60)}",`,
        '  "data": {',
        '    "items": [',
        `      {"id": "a", "title": "${"b".repeat(70)}"},`,
        '      {"id": "c"}',
        "    ]",
        "  }",
        "}",
      ].join("\n"),
    );
    expect(JSON.parse(text)).toEqual(value);
  });
});
