import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packFiles, readPackFiles, writeArchive } from "./archive.js";
import { zipEntries } from "./zip-entries.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svckit-pack-"));
  await mkdir(join(dir, "dist", "assets"), { recursive: true });
  await mkdir(join(dir, "src"));
  const files: Record<string, string> = {
    "package.json": "{}",
    "README.md": "# x",
    LICENSE: "MIT",
    "dist/index.js": "module.exports={}",
    "dist/index.js.map": "{}",
    "dist/tools.json": "[]",
    "dist/assets/icon.txt": "i",
    "src/index.ts": "export {}",
    "tsconfig.json": "{}",
    "notes.md": "private",
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("packFiles", () => {
  it("takes package.json, dist/ without source maps, README and licence, nothing else", async () => {
    expect(await packFiles(dir)).toEqual([
      "LICENSE",
      "README.md",
      "dist/assets/icon.txt",
      "dist/index.js",
      "dist/tools.json",
      "package.json",
    ]);
  });
});

describe("writeArchive", () => {
  it("writes a zip whose entries and contents are those files, the same bytes every time", async () => {
    const files = await packFiles(dir);
    await writeArchive(await readPackFiles(dir, files), join(dir, "a.svc"));
    const entries = await zipEntries(join(dir, "a.svc"));
    expect([...entries.keys()]).toEqual(files);
    expect(entries.get("dist/index.js")).toBe("module.exports={}");
    // Touched and made executable in between: the time and mode are not packed.
    await utimes(join(dir, "dist/index.js"), new Date("2030-01-02T03:04:05Z"), new Date("2030-01-02T03:04:05Z"));
    await chmod(join(dir, "dist/index.js"), 0o755);
    // Given in another order: entries are sorted.
    await writeArchive(new Map([...(await readPackFiles(dir, files))].reverse()), join(dir, "b.svc"));
    expect(await readFile(join(dir, "b.svc"))).toEqual(await readFile(join(dir, "a.svc")));
  });
});
