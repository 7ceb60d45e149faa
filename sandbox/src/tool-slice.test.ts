/**
 * Tool runs against interpreter speed: while a tool run is in progress its slices may last
 * TOOL_SLICE_MS (a person asked for it and waits), so rendering a 100 KB Markdown or YAML file
 * finishes; and an anchored regular expression tries one position, not the whole rest of the
 * input (the prelude's anchored-regexp.ts), so lexers such as marked stay linear.
 */
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_SLICE_MS } from "./limits.js";
import { SandboxPool } from "./threads/pool.js";
import { Sandbox } from "./sandbox.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const RENDER = `
import { marked } from "marked";
import YAML from "yaml";
const markdownBlock = "# Heading\\n\\nSome *emphasis* and **strong** text, a [link](https://example.com) and \`code\`.\\n\\n- one\\n- two\\n  - nested\\n\\n> quote\\n\\n\`\`\`js\\nconst x = 1 < 2;\\n\`\`\`\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\n";
const yamlBlock = "- name: item\\n  tags: [a, b, c]\\n  nested:\\n    key: value with words\\n    n: 42\\n    when: 2024-01-01\\n  text: |\\n    multi line\\n    text block\\n";
function render() {
  const markdown = markdownBlock.repeat(Math.ceil(100 * 1024 / markdownBlock.length));
  const yaml = yamlBlock.repeat(Math.ceil(100 * 1024 / yamlBlock.length));
  const html = marked.parse(markdown);
  const doc = YAML.parse(yaml);
  return { markdownChars: markdown.length, yamlChars: yaml.length, html: html.length, headings: html.split("<h1>").length - 1, items: doc.length, last: doc[doc.length - 1] };
}
module.exports = { tools: { render: { id: "render", run: () => render() } }, update: () => render() };
`;

let code = "";
const pool = new SandboxPool({ threads: 1 });
beforeAll(async () => {
  const result = await build({
    stdin: { contents: RENDER, resolveDir: process.cwd(), sourcefile: "render.js", loader: "js" },
    bundle: true,
    format: "cjs",
    platform: "browser",
    target: "es2023",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  code = result.outputFiles[0].text;
});
afterAll(() => pool.dispose());

const toolRun = {
  kind: "tool.run" as const,
  ctx: { preferences: {} },
  tool: "render",
  action: "run",
  values: {},
  files: [] as string[],
};

describe("tool runs and the slice", () => {
  it("a tool renders a 100 KB Markdown file and a 100 KB YAML file: Node's result", async () => {
    const module = { exports: {} as { update(): unknown } };
    new Function("module", "exports", code)(module, module.exports);
    const expected = JSON.parse(JSON.stringify(module.exports.update()));
    const sandbox = await pool.create(optionsFor(code, { limits: { sliceMs: 1000 } }), recorder());
    await sandbox.load();
    expect(await sandbox.invoke(toolRun, { signal: AbortSignal.timeout(30_000) })).toEqual(expected);
    expect(expected).toMatchObject({ markdownChars: expect.any(Number), headings: expect.any(Number) });
    await sandbox.dispose();
  }, 60_000);

  it("a busy loop past the slice is interrupted in update() but finishes in a tool run", async () => {
    // Work is counted in iterations, never in wall time: slices are timed by the thread's CPU
    // time, and a loop that spins until Date.now() moves 300 ms on may get far less than 100 ms
    // of CPU on a busy machine, and never be interrupted.
    const loop = `let count = 0;
      function spin() { let x = 0; for (let i = 0; i < count; i++) x = (x * 31 + i) % 1000003; return "done"; }
      module.exports = { update: () => spin(), tools: {
        set: { id: "set", run: (_action, values) => { count = values.count; } },
        t: { id: "t", run: () => spin() } } };`;
    const sandbox = await Sandbox.create(optionsFor(loop, { limits: { sliceMs: 100 } }), recorder());
    await sandbox.load();
    const setCount = (count: number) => sandbox.invoke({ ...toolRun, tool: "set", values: { count } });
    // Double the work until update() is interrupted: that much is more than one slice of CPU.
    let count = 1 << 16;
    let interrupted: unknown;
    while (!interrupted) {
      count *= 2;
      await setCount(count);
      interrupted = await sandbox.invoke(UPDATE).then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect((interrupted as Error).message).toContain(
      "interrupted: the extension's code ran for more than 100 ms without pausing",
    );
    // Twice that is well past the slice, and far inside TOOL_SLICE_MS.
    await setCount(count * 2);
    await expect(sandbox.invoke({ ...toolRun, tool: "t" })).resolves.toBe("done");
    // and update() is back to its own slice afterwards
    await expect(sandbox.invoke(UPDATE)).rejects.toThrow("more than 100 ms");
    await sandbox.dispose();
  });

  it(
    `a tool run is interrupted past TOOL_SLICE_MS (${TOOL_SLICE_MS} ms)`,
    async () => {
      const forever = `module.exports = { tools: { t: { id: "t", run: () => { for (;;); } } } };`;
      const sandbox = await Sandbox.create(optionsFor(forever, { limits: { sliceMs: 100 } }), recorder());
      await sandbox.load();
      await expect(sandbox.invoke({ ...toolRun, tool: "t" })).rejects.toThrow(
        `more than ${TOOL_SLICE_MS} ms without pausing`,
      );
      await sandbox.dispose();
    },
    TOOL_SLICE_MS + 20_000,
  );
});

describe("anchored regular expressions", () => {
  const CASES = [
    [`/^ab(c)?/`, `"abcabc"`],
    [`/^ab/`, `"xab"`],
    [`/^a|^b/`, `"bcd"`],
    [`/^a|b/`, `"xxb"`],
    [`/(^a)/`, `"xa"`],
    [`/^[|]x|^y/`, `"y"`],
    [`/^\\|a/`, `"|a"`],
    [`/^(?<word>\\w+)/d`, `"héllo world"`],
    [`/^a/m`, `"b\\na"`],
    [`/^a/g`, `"aa"`],
    [`/^.$/u`, `"😀"`],
    [`/^\\p{L}\\d/u`, `"É1"`],
  ];
  // each input as it is, and past 512 characters (where the twin is used)
  const INPUTS = CASES.flatMap(([re, input]) => [
    [re, input],
    [re, `${input} + "\\n".repeat(300) + "ab".repeat(300)`],
  ]);
  const PROBE = `[${INPUTS.map(([re, input]) => `(() => { const r = ${re}; r.lastIndex = 3; const m = r.exec(${input}); return [m && [...m], m && m.index, m && m.groups, m && m.indices && [...m.indices], r.lastIndex, r.test(${input}), (${input}).match(r), (${input}).replace(r, "<$&>").length, (${input}).search(r)]; })()`).join(",")}]`;

  it("match exactly as Node's", async () => {
    const sandbox = await Sandbox.create(optionsFor(`module.exports = { update: () => ${PROBE} };`), recorder());
    await sandbox.load();
    expect(await sandbox.invoke(UPDATE)).toEqual(JSON.parse(JSON.stringify(new Function(`return ${PROBE}`)())));
    await sandbox.dispose();
  });

  it("fail at once on a long input: 2,000 failing anchored matches against 1 MB inside one slice", async () => {
    const body = `const rest = "b".repeat(1 << 20); let hits = 0;
      for (let i = 0; i < 2000; i++) if (/^a+/.exec(rest) || /^(?:#|>)/.test(rest)) hits++;
      return hits;`;
    const sandbox = await Sandbox.create(optionsFor(`module.exports = { update() { ${body} } };`), recorder());
    await sandbox.load();
    await expect(sandbox.invoke(UPDATE)).resolves.toBe(0);
    await sandbox.dispose();
  });
});
