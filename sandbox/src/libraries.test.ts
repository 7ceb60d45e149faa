/**
 * Real npm libraries, bundled with esbuild as an extension for the sandbox is bundled
 * (CommonJS, platform browser: libraries pick their web builds, since the sandbox is a web-like
 * environment with no Node modules), load in the sandbox and give the same results as the same
 * bundle run by Node.
 */
import { build } from "esbuild";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const ENTRY = `
import { addDays, differenceInCalendarDays, format, formatDistanceStrict, parseISO, startOfWeek } from "date-fns";
import { z } from "zod";
import YAML from "yaml";
import { marked } from "marked";

function compute() {
  const day = parseISO("2024-02-27T10:30:00Z");
  const dates = {
    plus3: addDays(day, 3).toISOString(),
    formatted: format(new Date(2024, 1, 29, 8, 5), "EEEE d MMMM yyyy HH:mm"),
    diff: differenceInCalendarDays(new Date(2024, 11, 25), new Date(2024, 0, 1)),
    distance: formatDistanceStrict(new Date(2024, 0, 1), new Date(2024, 2, 1)),
    week: startOfWeek(new Date(2024, 4, 15), { weekStartsOn: 1 }).getDate(),
  };
  const User = z.object({ name: z.string().min(2), age: z.number().int().positive(), tags: z.array(z.string()).max(2) });
  const good = User.safeParse({ name: "Ada", age: 36, tags: ["x"] });
  const bad = User.safeParse({ name: "A", age: -1.5, tags: ["a", "b", "c"] });
  const schema = {
    good: good.success ? good.data : null,
    issues: bad.success ? [] : bad.error.issues.map((i) => ({ path: i.path.join("."), code: i.code, message: i.message })),
  };
  const doc = YAML.parse("name: svc\\nlist:\\n  - 1\\n  - two\\nnested: { a: true, when: 2024-01-01 }\\n");
  const yaml = { doc, back: YAML.stringify({ a: [1, { b: "c d" }], e: null, multi: "line1\\nline2" }) };
  const html = marked.parse("# Title\\n\\nSome *emphasis*, a [link](https://example.com) and\\n\\n- one\\n- two\\n\\n\`\`\`js\\nlet x = 1 < 2;\\n\`\`\`\\n");
  return { dates, schema, yaml, html };
}
module.exports = { update: () => compute() };
`;

let code = "";
let pool: SandboxPool;

beforeAll(async () => {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), sourcefile: "libraries-entry.js", loader: "js" },
    bundle: true,
    format: "cjs",
    platform: "browser",
    target: "es2023",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  code = result.outputFiles[0].text;
  pool = new SandboxPool({ threads: 1 });
});
afterAll(() => pool.dispose());

function runOnNode(bundle: string): unknown {
  const module = { exports: {} as Record<string, unknown> };
  new Function("module", "exports", "require", bundle)(module, module.exports, createRequire(import.meta.url));
  return (module.exports as { update(): unknown }).update();
}

describe("npm libraries in the sandbox", () => {
  it(`date-fns, zod, yaml and marked give the same results as on Node`, async () => {
    const expected = JSON.parse(JSON.stringify(runOnNode(code)));
    const started = performance.now();
    const sandbox = await pool.create(optionsFor(code), recorder());
    await sandbox.load();
    const result = await sandbox.invoke(UPDATE);
    const coldMs = performance.now() - started;
    console.log(
      `bundle of ${(code.length / 1024).toFixed(0)} KB: cold start to first update() ${coldMs.toFixed(1)} ms`,
    );
    expect(result).toEqual(expected);
    expect((expected as { schema: { issues: unknown[] } }).schema.issues).toHaveLength(3);
    expect((expected as { html: string }).html).toContain("<em>emphasis</em>");
    const diagnostics = await sandbox.diagnostics();
    console.log(`heap after the run: ${(diagnostics.heapUsed / 1024).toFixed(0)} KB`);
    await sandbox.dispose();
  });
});
