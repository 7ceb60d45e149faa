/**
 * Every extension in extensions/ (on by default or in the catalog) passes its own tests
 * (extensions/<name>/test/*.test.ts, Node's test runner with @svc/testkit), run the way an author
 * runs theirs: `svckit test` in the extension's folder. The folders are found, not listed: a new
 * extension is covered the day it lands.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, svckit } from "../cli/harness.js";

/** Folders of extensions/ whose package.json has an `svc` block, as extensions/build.mjs finds them. */
function extensionFolders(): string[] {
  const root = join(REPO, "extensions");
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .filter((name) => {
      try {
        return Boolean(JSON.parse(readFileSync(join(root, name, "package.json"), "utf8")).svc);
      } catch {
        return false;
      }
    })
    .sort();
}

describe("extensions/", () => {
  it("holds at least the three that are on by default", () => {
    expect(extensionFolders()).toEqual(expect.arrayContaining(["devtools", "focus", "system"]));
  });
});

describe.each(extensionFolders())("extensions/%s", (name) => {
  it("passes its tests with svckit test", { timeout: 60_000 }, async () => {
    const result = await svckit(["test"], { cwd: join(REPO, "extensions", name), env: { PATH: process.env.PATH } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ℹ pass [1-9]\d*\nℹ fail 0\n/);
  });
});
