/**
 * The code every template writes type-checks against the SDK, with the tsconfig.json the
 * template writes (the editor's view of a new extension). One tsc run covers all five.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSCONFIG } from "../../cli/src/scaffold/project-files.js";
import { planExtension, writeExtension } from "../../cli/src/scaffold/scaffold.js";
import { TEMPLATE_NAMES } from "../../cli/src/scaffold/template.js";
import { REPO, tempFolder } from "./harness.js";

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-types-");
  for (const template of TEMPLATE_NAMES)
    await writeExtension(join(folder.dir, template), planExtension(template, template));
});
afterAll(() => folder.remove());

describe("template sources", () => {
  it("type-check strictly against @svc/api", { timeout: 60_000 }, async () => {
    const scaffolded = JSON.parse(TSCONFIG);
    const tsconfig = {
      compilerOptions: {
        ...scaffolded.compilerOptions,
        paths: { "@svc/api": [join(REPO, "sdk", "src", "index.ts")] },
        types: [],
      },
      include: TEMPLATE_NAMES.map((template) => `${template}/src`),
    };
    await writeFile(join(folder.dir, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = spawnSync(
      process.execPath,
      [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", folder.dir, "--pretty", "false"],
      {
        encoding: "utf8",
      },
    );
    expect(tsc.stdout).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("and their tests type-check against @svc/testkit and Node's test runner", { timeout: 60_000 }, async () => {
    const scaffolded = JSON.parse(TSCONFIG);
    const tsconfig = {
      compilerOptions: {
        ...scaffolded.compilerOptions,
        paths: {
          "@svc/api": [join(REPO, "sdk", "src", "index.ts")],
          "@svc/testkit": [join(REPO, "testkit", "dist", "index.d.ts")],
        },
        typeRoots: [join(REPO, "node_modules", "@types")],
        types: ["node"],
      },
      include: TEMPLATE_NAMES.map((template) => `${template}/test`),
    };
    await writeFile(join(folder.dir, "tsconfig.tests.json"), JSON.stringify(tsconfig));
    const tsc = spawnSync(
      process.execPath,
      [
        join(REPO, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        join(folder.dir, "tsconfig.tests.json"),
        "--pretty",
        "false",
      ],
      {
        encoding: "utf8",
      },
    );
    expect(tsc.stdout).toBe("");
    expect(tsc.status).toBe(0);
  });
});
