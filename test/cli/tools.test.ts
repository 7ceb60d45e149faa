/**
 * Tools through svckit: build writes the canonical dist/tools.json (and removes a stale one),
 * validate --tool runs one in the sandbox with normalized values and checks its blocks.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svckit, tempFolder } from "./harness.js";
import { STAT_SOURCE, writeFixture } from "./fixtures.js";
import { TOOL_SPEC_DEFAULTS } from "../tool-spec-defaults.js";

const TOOLS_SOURCE = `import { code, defineExtension, status, table, tool } from "@svc/api";
export default defineExtension({
  tools: {
    repeat: tool({
      id: "repeat",
      title: "Repeat",
      icon: "repeat",
      fields: [
        { id: "word", type: "text", default: "hi" },
        { id: "times", type: "number", min: 1, max: 5 },
        { id: "loud", type: "toggle" },
      ],
      actions: [{ id: "go", title: "Go" }, { id: "count", title: "Count" }],
      run(action, values) {
        const word = values.loud ? values.word.toUpperCase() : values.word;
        if (action === "count") return [table({ words: values.times })];
        return [status("Repeated", "positive"), code(Array(values.times).fill(word).join(" "))];
      },
    }),
    broken: tool({
      id: "broken",
      title: "Broken",
      icon: "xmark",
      run: () => [{ type: "status", text: 5 } as never],
    }),
    failing: tool({
      id: "failing",
      title: "Failing",
      icon: "xmark",
      run: () => { throw new Error("the input is empty"); },
    }),
  },
});
`;

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-tools-");
  await writeFixture(folder.dir, { source: TOOLS_SOURCE });
});
afterAll(() => folder.remove());

describe("svckit build with tools", () => {
  it("writes every tool's canonical spec to dist/tools.json", async () => {
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n")[0]).toMatch(/ and dist\/tools\.json \(3 tools: repeat, broken, failing\)$/);
    const tools = JSON.parse(await readFile(join(folder.dir, "dist", "tools.json"), "utf8"));
    expect(tools.map((t: { id: string }) => t.id)).toEqual(["repeat", "broken", "failing"]);
    expect(tools[1]).toEqual({ id: "broken", title: "Broken", icon: "xmark", ...TOOL_SPEC_DEFAULTS });
  });
});

describe("svckit validate --tool", () => {
  it("runs the first action with values normalized against the fields, and prints the blocks", async () => {
    const result = await svckit(
      ["validate", "--tool", "repeat", "--values", '{"times": 9, "loud": true, "extra": 1}'],
      { cwd: folder.dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tool repeat, action "go", values {"word":"hi","times":5,"loud":true}');
    expect(result.stderr).toBe('  "times": 9 became 5\n  "extra" is not a field of this tool: dropped');
    expect(result.stdout).toContain('"text": "HI HI HI HI HI"');
    expect(result.stdout).toContain("tool repeat returned 2 blocks:");
  });

  it("runs the action given", async () => {
    const result = await svckit(["validate", "--tool", "repeat", "--action", "count", "--values", '{"times": 2}'], {
      cwd: folder.dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tool repeat, action "count"');
    expect(result.stdout).toContain('"type": "table"');
  });

  it("fails with the app's message when the blocks cannot be shown", async () => {
    const result = await svckit(["validate", "--tool", "broken"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      `tool broken: Broken returned something the app can't show. block 0: "text" should be a string`,
    );
  });

  it("fails with the error's message when the tool throws", async () => {
    const result = await svckit(["validate", "--tool", "failing"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe("tool failing failed: the input is empty");
  });

  it("is a usage error for an unknown tool or action, or values that are not JSON", async () => {
    const unknown = await svckit(["validate", "--tool", "nope"], { cwd: folder.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe(
      'the extension has no tool "nope": its tools are "repeat", "broken", "failing"',
    );
    const action = await svckit(["validate", "--tool", "repeat", "--action", "fly"], { cwd: folder.dir });
    expect(action.code).toBe(2);
    expect(action.stderr.split("\n")[0]).toBe('tool "repeat" has no action "fly": its actions are "go", "count"');
    const values = await svckit(["validate", "--tool", "repeat", "--values", "{times"], { cwd: folder.dir });
    expect(values.code).toBe(2);
    expect(values.stderr.split("\n")[0]).toMatch(/^--values is not JSON: /);
    const alone = await svckit(["validate", "--action", "go"], { cwd: folder.dir });
    expect(alone).toMatchObject({
      code: 2,
      stderr: "--action and --values go with --tool <name>\nRun `svckit validate --help` for usage.",
    });
  });
});

describe("svckit build without tools", () => {
  it("removes a stale dist/tools.json", async () => {
    await svckit(["build"], { cwd: folder.dir });
    expect(existsSync(join(folder.dir, "dist", "tools.json"))).toBe(true);
    await writeFile(join(folder.dir, "src", "index.ts"), STAT_SOURCE);
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.stdout.split("\n")[0]).toMatch(/; no tools$/);
    expect(existsSync(join(folder.dir, "dist", "tools.json"))).toBe(false);
  });
});
