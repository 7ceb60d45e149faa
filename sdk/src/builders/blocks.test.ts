import { describe, expect, it } from "vitest";
import { code, color, files, image, status, table } from "./blocks.js";
import { currency, date, text } from "./values.js";
import { blockSchema } from "../schemas/index.js";
import { processToolResult } from "../processing/index.js";

describe("block builders", () => {
  it("status: neutral by default, any tone on request", () => {
    expect(status("Nothing to do")).toEqual({ type: "status", text: "Nothing to do", tone: "neutral" });
    expect(status("Copied", "positive")).toEqual({ type: "status", text: "Copied", tone: "positive" });
    expect(status("Broken", "critical").tone).toBe("critical");
  });
  it("code: language only when given", () => {
    expect(code("{}", "json")).toEqual({ type: "code", text: "{}", language: "json" });
    expect(code("plain")).toEqual({ type: "code", text: "plain" });
  });
  it("table: from rows, or from an object in key order", () => {
    expect(table({ Algorithm: "HS256", Size: 3, Expires: date(1740821400) })).toEqual({
      type: "table",
      rows: [
        { name: "Algorithm", value: "HS256" },
        { name: "Size", value: 3 },
        { name: "Expires", value: { type: "date", value: "2025-03-01T09:30:00.000Z" } },
      ],
    });
    const rows = [{ name: "Docs", value: "RFC 7519", url: "https://www.rfc-editor.org/rfc/rfc7519" }];
    const block = table(rows);
    expect(block).toEqual({ type: "table", rows });
    expect(block.rows[0]).not.toBe(rows[0]);
  });
  it("files: one path or many", () => {
    expect(files("/tmp/a.pdf")).toEqual({ type: "files", paths: ["/tmp/a.pdf"] });
    expect(files(["/tmp/a.pdf", "/tmp/b.pdf"])).toEqual({ type: "files", paths: ["/tmp/a.pdf", "/tmp/b.pdf"] });
  });
  it("image and color", () => {
    expect(image("/tmp/p.png")).toEqual({ type: "image", path: "/tmp/p.png" });
    expect(color("ff8800")).toEqual({ type: "color", hex: "#ff8800" });
    expect(color(" #ABC ")).toEqual({ type: "color", hex: "#ABC" });
  });
  it("every builder's output is a valid result block", () => {
    const blocks = [
      status("ok", "warning"),
      text("hello"),
      code("x = 1", "python"),
      table({ Total: currency(3, "EUR") }),
      files(["/tmp/a.pdf"]),
      image("/tmp/p.png"),
      color("#11223344"),
    ];
    expect(processToolResult(JSON.parse(JSON.stringify(blocks)), "Tool")).toEqual({ ok: true, blocks, truncated: [] });
  });
  it("bad input still builds, and the check names the problem", () => {
    expect(blockSchema.safeParse(color("#12")).success).toBe(false);
    expect(blockSchema.safeParse(image("relative.png")).success).toBe(false);
    expect(processToolResult([status("ok"), image("out.png")], "Shrink")).toMatchObject({
      ok: false,
      error: "Shrink returned something the app can't show.",
    });
  });
});

describe("result limits the runtime applies to built blocks", () => {
  it("keeps 64 table rows at the limit and cuts the 65th", () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `r${i}`, value: i }));
    expect(processToolResult([table(rows(64))], "T")).toMatchObject({ ok: true, truncated: [] });
    expect(processToolResult([table(rows(65))], "T")).toMatchObject({ ok: true, truncated: ["0.rows"] });
  });
  it("keeps code of 100,000 characters and cuts one past with an ellipsis", () => {
    expect(processToolResult([code("a".repeat(100_000))], "T")).toMatchObject({ ok: true, truncated: [] });
    const cut = processToolResult([code("a".repeat(100_001))], "T");
    expect(cut.ok && (cut.blocks[0] as { text: string }).text).toBe(`${"a".repeat(100_000)}…`);
  });
});
