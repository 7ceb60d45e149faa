/**
 * The layering rules `npm run check` runs (.dependency-cruiser.cjs) fail where they should: a
 * folder loop inside a package, and an import up the package order. Run on a small tree of
 * their own, with the repository's configuration.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { REPO } from "./cli/harness.js";

const CRUISE = join(REPO, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const CONFIG = join(REPO, ".dependency-cruiser.cjs");

let tree: string;
afterEach(() => rmSync(tree, { recursive: true, force: true }));

async function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  tree = mkdtempSync(join(tmpdir(), "svc-layers-"));
  writeFileSync(join(tree, "tsconfig.check.json"), JSON.stringify({ compilerOptions: { module: "nodenext" } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const roots = [...new Set(Object.keys(files).map((path) => path.split("/").slice(0, 2).join("/")))];
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CRUISE, "--config", CONFIG, "--output-type", "err", ...roots],
      { cwd: tree },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, output: stdout };
  }
}

describe("the layering check", () => {
  it("passes a package whose folders depend one way", async () => {
    const result = await cruise({
      "sdk/src/kit/a.ts": `import { b } from "../builders/b.js"; export const a = b;`,
      "sdk/src/builders/b.ts": `export const b = 1;`,
    });
    expect(result).toEqual({ code: 0, output: expect.stringContaining("no dependency violations found") });
  });

  it("fails on a folder loop inside a package, naming it", async () => {
    const result = await cruise({
      "sdk/src/kit/a.ts": `import { b } from "../builders/b.js"; export const a = b;`,
      "sdk/src/builders/b.ts": `import { c } from "../kit/c.js"; export const b = c;`,
      "sdk/src/kit/c.ts": `export const c = 1;`,
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/error no-folder-loop: sdk\/src\/builders → \s*sdk\/src\/kit →\s*sdk\/src\/builders/);
  });

  it("fails on an import up the package order", async () => {
    const result = await cruise({
      "sandbox/src/a.ts": `import { r } from "../../runtime/src/r.js"; export const a = r;`,
      "runtime/src/r.ts": `export const r = 1;`,
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("error sandbox-imports-down-only: sandbox/src/a.ts → runtime/src/r.ts");
  });
});
