/**
 * Every `svckit new` template, end to end in a temp folder: new → build → validate → pack,
 * offline, with @svc/api resolved from svckit's own copy (no npm install in the folder).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipEntries } from "../../cli/src/pack/zip-entries.js";
import { svckit, tempFolder } from "./harness.js";

const TEMPLATES = ["tracker", "payments", "deploys", "errors", "traffic"] as const;
/** The layout each template's main blip uses. */
const LAYOUT: Record<(typeof TEMPLATES)[number], string> = {
  tracker: "list",
  payments: "stat",
  deploys: "progress",
  errors: "stat",
  traffic: "meter",
};

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-templates-");
});
afterAll(() => folder.remove());

describe.each(TEMPLATES)("svckit new --template %s", (template) => {
  const name = `my-${template}`;
  const dir = () => join(folder.dir, name);

  it("scaffolds the files with the manifest and tests", async () => {
    const result = await svckit(["new", name, "--template", template], { cwd: folder.dir });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(
      `created ${name} (com.example.${name}, template ${template}): package.json, src/index.ts, test/extension.test.ts, test/recordings/api.json, README.md, tsconfig.json, .gitignore`,
    );
    const pkg = JSON.parse(await readFile(join(dir(), "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name,
      version: "0.1.0",
      main: "dist/index.js",
      svc: { id: `com.example.${name}`, title: `My ${template[0].toUpperCase()}${template.slice(1)}` },
    });
    expect(pkg.svc.preferences.map((p: { name: string }) => p.name)).toEqual(["apiUrl", "apiToken"]);
  });

  it("builds", async () => {
    const result = await svckit(["build"], { cwd: dir() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^built dist\/index\.js \(\d+\.\d KB\); no tools\n\(types not checked: svckit check does that\)$/,
    );
    expect(existsSync(join(dir(), "dist", "index.js"))).toBe(true);
    // The source map sits beside the bundle, for the log's src/…:line:col.
    expect(JSON.parse(await readFile(join(dir(), "dist", "index.js.map"), "utf8")).sources).toContain(
      "../src/index.ts",
    );
  });

  it("validates offline, showing sample data marked as such", async () => {
    const result = await svckit(["validate", dir()], { cwd: folder.dir });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`com.example.${name} 0.1.0: manifest ok, no tools`);
    expect(result.stdout).toMatch(
      new RegExp(`emit com\\.example\\.${name}/[a-z-0-9]+ \\(${LAYOUT[template]}\\) ".+ \\(sample\\)"`),
    );
    expect(result.stdout).toContain('"subtitle": "Sample data · set the API URL in Settings"');
    expect(result.stdout.split("\n").at(-1)).toBe("valid");
  });

  it("passes its own tests with svckit test, offline, the API replayed from its recording", async () => {
    const result = await svckit(["test"], { cwd: dir() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✔ shows sample data, marked as such, until an API URL is set");
    expect(result.stdout).toMatch(/ℹ fail 0\n/);
    expect(result.stdout).not.toContain("✖");
  });

  it("packs <name>-<version>.svc with package.json, dist/ and README", async () => {
    const result = await svckit(["pack"], { cwd: dir() });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").at(-1)).toBe(`packed ${name}-0.1.0.svc: README.md, dist/index.js, package.json`);
    const entries = await zipEntries(join(dir(), `${name}-0.1.0.svc`));
    expect([...entries.keys()]).toEqual(["README.md", "dist/index.js", "package.json"]);
    expect(JSON.parse(entries.get("package.json") as string).svc.id).toBe(`com.example.${name}`);
  });
});
