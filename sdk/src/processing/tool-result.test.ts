import { describe, expect, it } from "vitest";
import { cutText, processDropResult, processToolResult } from "./tool-result.js";
import { jsonByteLength } from "../schemas/text.js";

const status = (text: string) => ({ type: "status", text });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function ok(blocks: unknown) {
  const result = processToolResult(blocks, "Base64");
  if (!result.ok) throw new Error(`${result.error} ${result.details}`);
  return result;
}

describe("processToolResult: validation", () => {
  it("accepts every block type and fills the status tone", () => {
    const blocks = [
      status("Done"),
      { type: "status", text: "Careful", tone: "warning" },
      { type: "text", value: "hello" },
      { type: "code", text: "{}", language: "json" },
      {
        type: "table",
        rows: [
          { name: "a", value: 1 },
          { name: "b", value: { type: "percent", value: 0.5 }, url: "https://x.dev" },
        ],
      },
      { type: "files", paths: ["/tmp/a"] },
      { type: "image", path: "/tmp/a.png" },
      { type: "color", hex: "#fff" },
      { type: "color", hex: "#ff8800" },
      { type: "color", hex: "#ff880080" },
    ];
    const result = ok(blocks);
    expect(result.blocks[0]).toEqual({ type: "status", text: "Done", tone: "neutral" });
    expect(result.blocks).toHaveLength(10);
  });

  it("accepts a single block or nothing", () => {
    expect(ok(status("x")).blocks).toHaveLength(1);
    expect(ok(undefined).blocks).toEqual([]);
    expect(ok(null).blocks).toEqual([]);
  });

  it("fails with SPEC's message, details apart", () => {
    const cases: [unknown, string][] = [
      [
        [status("ok"), { type: "chart" }],
        'block 1: "type" should be one of status, text, code, table, files, image, color',
      ],
      [[{ type: "color", hex: "#ff88" }], 'block 0: "hex" should be # and 3, 6 or 8 hex digits, like #ff8800'],
      [[{ type: "files", paths: ["relative.txt"] }], 'block 0: "paths.0" should be an absolute path'],
      [
        [{ type: "table", rows: [{ name: "a", value: true }] }],
        'block 0: "rows.0.value" should be an object, a string or a number',
      ],
      [
        [{ type: "table", rows: [{ name: "a", value: 1, url: "javascript:alert(1)" }] }],
        'block 0: "rows.0.url" should be an http or https address',
      ],
      [["text"], "block 0 should be an object"],
      [
        [{ type: "status", text: "x", tone: "angry" }],
        'block 0: "tone" should be one of neutral, positive, warning, critical',
      ],
    ];
    for (const [blocks, details] of cases) {
      expect(processToolResult(blocks, "Base64")).toEqual({
        ok: false,
        error: "Base64 returned something the app can't show.",
        details,
      });
    }
  });
});

describe("processToolResult: limits", () => {
  it("keeps 24 blocks and cuts the 25th", () => {
    expect(ok(range(24).map((i) => status(`${i}`))).truncated).toEqual([]);
    const cut = ok(range(25).map((i) => status(`${i}`)));
    expect(cut.blocks).toHaveLength(24);
    expect(cut.truncated).toEqual(["blocks"]);
  });

  it("keeps 64 table rows and 64 files per block", () => {
    const rows = (n: number) => range(n).map((i) => ({ name: `r${i}`, value: i }));
    const paths = (n: number) => range(n).map((i) => `/tmp/${i}`);
    expect(
      ok([
        { type: "table", rows: rows(64) },
        { type: "files", paths: paths(64) },
      ]).truncated,
    ).toEqual([]);
    const cut = ok([
      { type: "table", rows: rows(65) },
      { type: "files", paths: paths(65) },
    ]);
    expect(cut.truncated).toEqual(["0.rows", "1.paths"]);
    expect(cut.blocks).toEqual([
      { type: "table", rows: rows(64) },
      { type: "files", paths: paths(64) },
    ]);
  });

  it("keeps 100,000 characters of text and code, cuts the 100,001st with an ellipsis", () => {
    const at = "a".repeat(100_000);
    expect(
      ok([
        { type: "text", value: at },
        { type: "code", text: at },
      ]).truncated,
    ).toEqual([]);
    const past = `${at}b`;
    const cut = ok([
      { type: "text", value: past },
      { type: "code", text: past },
    ]);
    expect(cut.truncated).toEqual(["0.value", "1.text"]);
    expect(cut.blocks).toEqual([
      { type: "text", value: `${at}…` },
      { type: "code", text: `${at}…` },
    ]);
  });

  it("never splits a surrogate pair when cutting", () => {
    const s = `${"a".repeat(99_999)}😀tail`;
    expect(cutText(s)).toEqual({ text: `${"a".repeat(99_999)}…`, cut: true });
  });

  it("accepts exactly 1 MB of JSON and fails just past it", () => {
    // Eleven text blocks of 100,000 characters are cut-free; the last block tunes the size.
    const big = range(10).map(() => ({ type: "text", value: "x".repeat(100_000) }));
    const sized = (bytes: number) => {
      const filler = { type: "text", value: "" };
      const room = bytes - jsonByteLength([...big, filler]);
      return [...big, { type: "text", value: "y".repeat(room) }];
    };
    const atLimit = sized(1_048_576);
    expect(jsonByteLength(atLimit)).toBe(1_048_576);
    expect(ok(atLimit).blocks).toHaveLength(11);
    expect(processToolResult(sized(1_048_577), "Base64")).toEqual({
      ok: false,
      error: "Base64 returned more than 1 MB, too much to show.",
      details: "result is 1048577 bytes of JSON, over the 1048576-byte limit",
    });
  });
});

describe("processDropResult", () => {
  it("accepts a message, outputs and copied text", () => {
    const result = { message: "Shrunk 2 images", outputs: ["/tmp/a.jpg"], copiedText: "done" };
    expect(processDropResult(result, "Shrink")).toEqual({ ok: true, result });
    expect(processDropResult({ message: "Nothing to do", outputs: [] }, "Shrink").ok).toBe(true);
  });

  it("fails with SPEC's message for a bad result", () => {
    expect(processDropResult({ message: "x", outputs: ["out.jpg"] }, "Shrink")).toEqual({
      ok: false,
      error: "Shrink returned something the app can't show.",
      details: '"outputs.0" should be an absolute path',
    });
    expect(processDropResult(undefined, "Shrink")).toMatchObject({
      ok: false,
      details: "drop result should be an object",
    });
  });

  it("fails over 1 MB", () => {
    const result = { message: "x", outputs: [], copiedText: "z".repeat(1_048_576) };
    expect(processDropResult(result, "Shrink")).toMatchObject({
      ok: false,
      error: "Shrink returned more than 1 MB, too much to show.",
    });
  });
});
