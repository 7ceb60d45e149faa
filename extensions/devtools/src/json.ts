/**
 * JSON: format, minify, validate. When `JSON.parse` fails, our own small scanner finds where,
 * so the line and column of the first mistake read the same in every engine (the sandbox's
 * QuickJS words its errors differently from V8). Valid text never pays for the scanner, which
 * takes about a second per 100 KB in the sandbox.
 */
import { code, status, table, type Block } from "@svc/api";

export interface JsonProblem {
  line: number;
  column: number;
  message: string;
}

/** What the scanner saw besides the first mistake: numbers that lose precision as doubles. */
interface ScanResult {
  problem?: JsonProblem;
  unsafeNumbers: number;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * Finds the first place `text` stops being JSON (RFC 8259), with a 1-based line and column.
 *
 * @example
 * scanJson('{"a": 1,}').problem // { line: 1, column: 9, message: 'expected a string key, found "}"' }
 */
export function scanJson(text: string): ScanResult {
  let at = 0;
  let unsafeNumbers = 0;
  const fail = (message: string): never => {
    throw Object.assign(new Error(message), { at });
  };
  const describe = (i: number) => (i >= text.length ? "the end of the text" : JSON.stringify(text[i]));
  const space = () => {
    while (at < text.length && WHITESPACE.has(text[at])) at++;
  };
  const expect = (word: string) => {
    for (const ch of word) {
      if (text[at] !== ch) fail(`expected ${JSON.stringify(word)}, found ${describe(at)}`);
      at++;
    }
  };
  const string = () => {
    at++; // the opening quote
    for (;;) {
      if (at >= text.length) fail('the string is not closed: a " is missing');
      const ch = text[at];
      if (ch === '"') return void at++;
      if (ch === "\\") {
        const next = text[at + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) fail("\\u should be followed by 4 hex digits");
          at += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) at += 2;
        else fail(`${JSON.stringify(`\\${next ?? ""}`)} is not a JSON escape`);
      } else if (ch < " ") fail("a control character (such as a raw line break) must be escaped inside a string");
      else at++;
    }
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match) fail(`expected a value, found ${describe(at)}`);
    const token = match![0];
    if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) unsafeNumbers++;
    at += token.length;
  };
  const value = (depth: number): void => {
    if (depth > 512) fail("nested more than 512 levels deep");
    space();
    const ch = text[at];
    if (ch === "{") {
      at++;
      space();
      if (text[at] === "}") return void at++;
      for (;;) {
        space();
        if (text[at] !== '"') fail(`expected a string key, found ${describe(at)}`);
        string();
        space();
        if (text[at] !== ":") fail(`expected ":" after the key, found ${describe(at)}`);
        at++;
        value(depth + 1);
        space();
        if (text[at] === ",") {
          at++;
          continue;
        }
        if (text[at] === "}") return void at++;
        fail(`expected "," or "}", found ${describe(at)}`);
      }
    }
    if (ch === "[") {
      at++;
      space();
      if (text[at] === "]") return void at++;
      for (;;) {
        value(depth + 1);
        space();
        if (text[at] === ",") {
          at++;
          continue;
        }
        if (text[at] === "]") return void at++;
        fail(`expected "," or "]", found ${describe(at)}`);
      }
    }
    if (ch === '"') return string();
    if (ch === "t") return expect("true");
    if (ch === "f") return expect("false");
    if (ch === "n") return expect("null");
    return number();
  };
  try {
    if (text.trim() === "") fail("the text is empty");
    value(0);
    space();
    if (at < text.length) fail(`unexpected ${describe(at)} after the JSON value`);
    return { unsafeNumbers };
  } catch (error) {
    const position = (error as { at?: number }).at ?? at;
    const before = text.slice(0, position);
    const line = before.split("\n").length;
    const column = position - before.lastIndexOf("\n");
    return { problem: { line, column, message: (error as Error).message }, unsafeNumbers };
  }
}

/** The line of the mistake and a caret under it, for a code block. */
function pointAt(text: string, problem: JsonProblem): string {
  const source = text.split("\n")[problem.line - 1] ?? "";
  const from = Math.max(0, problem.column - 60);
  return `${source.slice(from, from + 120)}\n${" ".repeat(problem.column - 1 - from)}^`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

function describeValue(value: unknown): Record<string, string | number> {
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  let depth = 0;
  const walk = (v: unknown, d: number) => {
    depth = Math.max(depth, d);
    if (v && typeof v === "object") for (const child of Object.values(v)) walk(child, d + 1);
  };
  walk(value, 0);
  const facts: Record<string, string | number> = { Type: kind };
  if (Array.isArray(value)) facts.Items = value.length;
  else if (value && typeof value === "object") facts.Keys = Object.keys(value).length;
  facts.Depth = depth;
  return facts;
}

export type JsonAction = "format" | "minify" | "validate";

/**
 * @example
 * jsonTool("minify", { input: '{ "a": [1, 2] }', indent: "2", sortKeys: false })
 * // [status("Valid JSON", "positive"), code('{"a":[1,2]}', "json"), table({ Characters: 11 })]
 */
export function jsonTool(action: JsonAction, values: { input: string; indent: string; sortKeys: boolean }): Block[] {
  const { input } = values;
  if (input.trim() === "") return [status("Paste JSON to format, minify or check it.")];
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (error) {
    // Only a failure pays for the scanner (it is slow in the sandbox): it says where and why.
    const problem = scanJson(input).problem ?? { line: 1, column: 1, message: (error as Error).message };
    return [
      status(`Not JSON: line ${problem.line}, column ${problem.column}: ${problem.message}`, "critical"),
      code(pointAt(input, problem)),
    ];
  }
  const blocks: Block[] = [status("Valid JSON", "positive")];
  // Only text with a run of 16 digits can hold a whole number past 2^53.
  const unsafe = /\d{16}/.test(input) ? scanJson(input).unsafeNumbers : 0;
  if (unsafe > 0) {
    blocks.push(
      status(
        `${unsafe} whole number${unsafe === 1 ? " is" : "s are"} past 2^53: JavaScript rounds ${unsafe === 1 ? "it" : "them"} when parsing`,
        "warning",
      ),
    );
  }
  if (values.sortKeys) parsed = sortKeys(parsed);
  if (action === "validate") return [...blocks, table(describeValue(parsed))];
  const indent = action === "minify" ? undefined : values.indent === "tab" ? "\t" : Number(values.indent) || 2;
  const out = JSON.stringify(parsed, null, indent);
  return [...blocks, code(out, "json"), table({ Characters: out.length, Before: input.length })];
}
