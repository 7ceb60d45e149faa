/**
 * Regular expressions with the `v` flag (as svckit's bundles write them: `new RegExp(source,
 * "v")`) match as in Node: set difference and intersection, nested classes, `\q{…}` strings,
 * negation, properties; and read back as written.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "./sandbox.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

const CASES: [string, string[]][] = [
  ["[\\p{L}--[a-z]]", ["a", "É", "Z", "1"]],
  ["[[a-z]&&[aeiou]]", ["e", "b", "E"]],
  ["^[\\p{Script=Greek}&&\\p{Letter}]+$", ["αβγ", "αβ1", "abc"]],
  ["[\\q{abc|d}x]", ["abc", "ab", "d", "x"]],
  ["^[[0-9][a-f]]+$", ["c0ffee", "g00d"]],
  ["[^\\d--[5]]", ["5", "6", "a"]],
  ["[^[a-z]&&[a-m]]", ["c", "q", "1"]],
  ["\\p{L}+", ["héllo wörld"]],
  ["[\\(\\)\\[\\]\\{\\}\\/\\-\\|]", ["(", "]", "-", "|", "a"]],
  ["[\\&\\!\\#\\~]", ["&", "~", "a"]],
  ["[[a-c]--b]", ["a", "b", "c"]],
  ["[\\w--\\d]+", ["ab12cd"]],
  // escapes inside \q{…} stay escapes; strings longer than a character in -- and &&
  ["^[\\q{A\\x42}]$", ["AB", "Ax42"]],
  ["^[\\q{A\\u{42}|c}]$", ["AB", "c"]],
  ["^[\\q{a\\|b|c}]$", ["a|b", "a", "c"]],
  ["^[\\q{\\-|\\b}]$", ["-", "\b"]],
  ["^[\\q{0|2|4|9\\uFE0F\\u20E3}--\\d]+$", ["9\uFE0F\u20E3", "0", "7"]],
  ["^[_&&\\q{0|2|4|9\\uFE0F\\u20E3}]+$", ["9\uFE0F\u20E3", "_", "0"]],
  ["^[\\d&&\\q{9\\uFE0F\\u20E3|5}]$", ["9\uFE0F\u20E3", "9", "5"]],
  ["^[\\q{abc|d}--\\q{abc}]$", ["abc", "d"]],
  ["^[\\q{abc|d}&&\\q{abc|x}]$", ["abc", "d", "x"]],
];

const PROBE = `[${CASES.map(([source, inputs]) => `(() => { const r = new RegExp(${JSON.stringify(source)}, "v"); return [r.source, r.flags, ${JSON.stringify(inputs)}.map((s) => { const m = r.exec(s); return m && [m[0], m.index]; })]; })()`).join(",")}]`;

describe("the v flag", () => {
  it("\\q{A\\x42} matches AB, not the letters of the escape", async () => {
    const sandbox = await Sandbox.create(
      optionsFor(
        `module.exports = { update: () => [new RegExp("^[\\\\q{A\\\\x42}]$", "v").test("AB"), new RegExp("^[\\\\q{A\\\\x42}]$", "v").test("Ax42")] };`,
      ),
      recorder(),
    );
    sandboxes.push(sandbox);
    await sandbox.load();
    expect(await sandbox.invoke(UPDATE)).toEqual([true, false]);
  });

  it("matches as Node, and reads back as written", async () => {
    const sandbox = await Sandbox.create(optionsFor(`module.exports = { update: () => ${PROBE} };`), recorder());
    sandboxes.push(sandbox);
    await sandbox.load();
    expect(await sandbox.invoke(UPDATE)).toEqual(JSON.parse(JSON.stringify(new Function(`return ${PROBE}`)())));
  });

  it("keeps RegExp's own face and refuses u and v together as Node does", async () => {
    const body = `let refused; try { new RegExp("a", "uv"); } catch (e) { refused = e.name; }
      return [RegExp.name, RegExp.length, /a/ instanceof RegExp, new RegExp("a", "v") instanceof RegExp, RegExp.prototype.constructor === RegExp,
        RegExp(/x/g).flags, "a-b-c".split(new RegExp("-", "v")), "aXbxc".replace(new RegExp("x", "giv"), "_"), refused];`;
    const sandbox = await Sandbox.create(optionsFor(`module.exports = { update() { ${body} } };`), recorder());
    sandboxes.push(sandbox);
    await sandbox.load();
    expect(await sandbox.invoke(UPDATE)).toEqual([
      "RegExp",
      2,
      true,
      true,
      true,
      "g",
      ["a", "b", "c"],
      "a_b_c",
      "SyntaxError",
    ]);
  });
});
