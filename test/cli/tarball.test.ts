/**
 * The way an author outside this repository gets `@svc/api` and `svckit` (cli/README.md):
 * `npm pack` of sdk, sandbox, runtime, testkit and cli, then `npm install -D <tarballs>` in the
 * extension's folder. Then every template, scaffolded by that svckit in a fresh folder, passes its
 * own tests offline (`svckit test`, the API replayed from the scaffold's recording). Third-party dependencies come from
 * the npm registry as they would for an author
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
const TEMPLATES = ["tracker", "payments", "deploys", "errors", "traffic"] as const;
let folder: { dir: string; remove(): Promise<void> };
let tarballs: string[] = [];
beforeAll(async () => {
  folder = await tempFolder("svckit-tarball-");
});
afterAll(() => folder.remove());

describe("svckit from tarballs, outside the repository", () => {
  it("installs, builds and packs an extension", { timeout: 180_000 }, async () => {
    const packages = join(folder.dir, "packages");
    await mkdir(packages);
    execFileSync(
      npm,
      [
        "pack",
        "-w",
        "@svc/api",
        "-w",
        "@svc/sandbox",
        "-w",
        "@svc/runtime",
        "-w",
        "@svc/testkit",
        "-w",
        "svckit",
        "--pack-destination",
        packages,
      ],
      {
        cwd: REPO,
        stdio: "pipe",
      },
    );
    const names = (await readdir(packages)).sort();
    expect(names).toEqual([
      "svc-api-0.1.0.tgz",
      "svc-runtime-0.1.0.tgz",
      "svc-sandbox-0.1.0.tgz",
      "svc-testkit-0.1.0.tgz",
      "svckit-0.1.0.tgz",
    ]);
    tarballs = names.map((file) => join(packages, file));

    const ext = await writeFixture(join(folder.dir, "ext"));
    execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "-D", ...tarballs], {
      cwd: ext,
      stdio: "pipe",
    });
    const svckit = join(ext, "node_modules", "svckit", "dist", "main.js");
    const built = execFileSync(process.execPath, [svckit, "pack"], { cwd: ext, encoding: "utf8" });
    expect(built).toMatch(
      /^built dist\/index\.js \(\d+\.\d KB\); no tools\npacked fixture-1\.2\.3\.svc: dist\/index\.js, package\.json\n$/,
    );
    expect(existsSync(join(ext, "fixture-1.2.3.svc"))).toBe(true);
  });

  it.each(TEMPLATES)(
    "scaffolds the %s template in a fresh folder, whose tests pass offline",
    { timeout: 180_000 },
    async (template) => {
      expect(tarballs).toHaveLength(5);
      const installed = join(folder.dir, "ext", "node_modules", "svckit", "dist", "main.js");
      const name = `my-${template}`;
      const root = join(folder.dir, "templates");
      await mkdir(root, { recursive: true });
      execFileSync(process.execPath, [installed, "new", name, "--template", template], { cwd: root, stdio: "pipe" });
      const dir = join(root, name);
      execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "-D", ...tarballs], {
        cwd: dir,
        stdio: "pipe",
      });
      const svckit = join(dir, "node_modules", "svckit", "dist", "main.js");
      const tested = execFileSync(process.execPath, [svckit, "test"], { cwd: dir, encoding: "utf8" });
      expect(tested).toMatch(/^built dist\/index\.js \(\d+\.\d KB\); no tools\nrunning 1 test file\n/);
      expect(tested).toContain("✔ shows sample data, marked as such, until an API URL is set");
      expect(tested).toMatch(/ℹ pass [2-9]\nℹ fail 0\n/);
      // The kit came from the tarball, not from this repository.
      expect(existsSync(join(dir, "node_modules", "@svc", "testkit", "dist", "index.js"))).toBe(true);
    },
  );
});
