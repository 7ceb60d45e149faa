/**
 * The way an author outside this repository gets `@svc/api` and `svckit` (cli/README.md):
 * `npm pack` of sdk, sandbox, runtime and cli, then `npm install -D <tarballs>` in the extension's
 * folder. Third-party dependencies come from the npm registry as they would for an author
 * (`--prefer-offline` takes them from npm's cache when it has them: a cache is never required).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-tarball-");
});
afterAll(() => folder.remove());

describe("svckit from tarballs, outside the repository", () => {
  it("installs, builds and packs an extension", { timeout: 180_000 }, async () => {
    const packages = join(folder.dir, "packages");
    await mkdir(packages);
    execFileSync(npm, ["pack", "-w", "@svc/api", "-w", "@svc/sandbox", "-w", "@svc/runtime", "-w", "svckit", "--pack-destination", packages], {
      cwd: REPO,
      stdio: "pipe",
    });
    const tarballs = (await readdir(packages)).sort();
    expect(tarballs).toEqual(["svc-api-0.1.0.tgz", "svc-runtime-0.1.0.tgz", "svc-sandbox-0.1.0.tgz", "svckit-0.1.0.tgz"]);

    const ext = await writeFixture(join(folder.dir, "ext"));
    execFileSync(
      npm,
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "-D", ...tarballs.map((file) => join(packages, file))],
      { cwd: ext, stdio: "pipe" },
    );
    const svckit = join(ext, "node_modules", "svckit", "dist", "main.js");
    const built = execFileSync(process.execPath, [svckit, "pack"], { cwd: ext, encoding: "utf8" });
    expect(built).toMatch(/^built dist\/index\.js \(\d+\.\d KB\); no tools\npacked fixture-1\.2\.3\.svc: dist\/index\.js, package\.json\n$/);
    expect(existsSync(join(ext, "fixture-1.2.3.svc"))).toBe(true);
  });
});
