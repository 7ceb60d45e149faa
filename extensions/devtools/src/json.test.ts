import { describe, expect, it } from "vitest";
import { jsonTool, scanJson } from "./json.js";

describe("scanJson", () => {
  it("accepts what JSON.parse accepts", () => {
    for (const text of ['{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"]}', "[]", " 0 ", '"x"', "{\n}\n"]) {
      expect(scanJson(text).problem, text).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it("finds the first mistake with its 1-based line and column", () => {
    expect(scanJson('{"a": 1,}').problem).toEqual({ line: 1, column: 9, message: 'expected a string key, found "}"' });
    expect(scanJson("[1, 2\n, 3,]").problem).toEqual({ line: 2, column: 5, message: 'expected a value, found "]"' });
    expect(scanJson("{'a': 1}").problem).toEqual({ line: 1, column: 2, message: `expected a string key, found "'"` });
    expect(scanJson('{"a": tru}').problem).toEqual({ line: 1, column: 10, message: 'expected "true", found "}"' });
    expect(scanJson('"abc').problem).toEqual({
      line: 1,
      column: 5,
      message: 'the string is not closed: a " is missing',
    });
    expect(scanJson('"a\nb"').problem?.message).toBe(
      "a control character (such as a raw line break) must be escaped inside a string",
    );
    expect(scanJson("[01]").problem).toEqual({ line: 1, column: 3, message: 'expected "," or "]", found "1"' });
    expect(scanJson("{} x").problem).toEqual({ line: 1, column: 4, message: 'unexpected "x" after the JSON value' });
    expect(scanJson("  ").problem?.message).toBe("the text is empty");
    expect(scanJson("[".repeat(600)).problem?.message).toBe("nested more than 512 levels deep");
  });

  it("counts whole numbers that lose precision", () => {
    expect(scanJson("[9007199254740993, 9007199254740991, 1.5e300]").unsafeNumbers).toBe(1);
  });
});

describe("jsonTool", () => {
  it("formats with the indent asked, sorts keys when asked, warns about big numbers", () => {
    const blocks = jsonTool("format", { input: '{"b":1,"a":12345678901234567890}', indent: "tab", sortKeys: true });
    expect(blocks[1]).toEqual({
      type: "status",
      text: "1 whole number is past 2^53: JavaScript rounds it when parsing",
      tone: "warning",
    });
    expect(blocks[2]).toEqual({ type: "code", text: '{\n\t"a": 12345678901234567000,\n\t"b": 1\n}', language: "json" });
  });

  it("says what to do with empty input", () => {
    expect(jsonTool("format", { input: " ", indent: "2", sortKeys: false })).toEqual([
      { type: "status", text: "Paste JSON to format, minify or check it.", tone: "neutral" },
    ]);
  });
});
