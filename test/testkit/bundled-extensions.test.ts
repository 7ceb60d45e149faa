/**
 * The bundled extensions' own tests (extensions/<name>/test/*.test.ts, Node's test runner with
 * @svc/testkit), run the way an author runs theirs: `svckit test` in the extension's folder.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, svckit } from "../cli/harness.js";

describe.each(["focus", "system"])("extensions/%s", (name) => {
  it("passes its tests with svckit test", { timeout: 60_000 }, async () => {
    const result = await svckit(["test"], { cwd: join(REPO, "extensions", name), env: { PATH: process.env.PATH } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ℹ pass [1-9]\d*\nℹ fail 0\n/);
  });
});
