import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolPathFence } from "./tool-paths.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "svc-fence-")));
  roots.push(root);
  const data = join(root, "Data", "com.example.x");
  const elsewhere = join(root, "elsewhere");
  mkdirSync(join(data, "out"), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(data, "out", "a.txt"), "a");
  writeFileSync(join(elsewhere, "secret.txt"), "s");
  writeFileSync(join(elsewhere, "given.txt"), "g");
  return { root, data, elsewhere };
}

describe("ToolPathFence", () => {
  it("keeps a file inside the data folder, as its real path", async () => {
    const { data } = setup();
    const fence = await ToolPathFence.create(data, []);
    expect(await fence.check(join(data, "out", "..", "out", "a.txt"))).toEqual({
      ok: true,
      path: join(data, "out", "a.txt"),
    });
  });

  it("drops a file outside, a symlink inside pointing outside, the folder itself, a missing file and a relative path", async () => {
    const { data, elsewhere } = setup();
    symlinkSync(join(elsewhere, "secret.txt"), join(data, "link"));
    const fence = await ToolPathFence.create(data, []);
    const outside = await fence.check(join(elsewhere, "secret.txt"));
    expect(outside).toEqual({
      ok: false,
      reason: `${join(elsewhere, "secret.txt")} resolves to ${join(elsewhere, "secret.txt")}, outside the extension's data folder and not a file the user gave: write it under ctx.dataDir`,
    });
    expect((await fence.check(join(data, "link"))).ok).toBe(false);
    expect((await fence.check(data)).ok).toBe(false);
    expect(await fence.check(join(data, "nope.txt"))).toEqual({
      ok: false,
      reason: `${join(data, "nope.txt")} does not exist`,
    });
    expect(await fence.check("out/a.txt")).toEqual({ ok: false, reason: '"out/a.txt" is not an absolute path' });
  });

  it("drops a sibling folder whose name only starts like the data folder", async () => {
    const { root, data } = setup();
    const sibling = `${data}-evil`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, "x"), "x");
    const fence = await ToolPathFence.create(data, []);
    expect((await fence.check(join(sibling, "x"))).ok).toBe(false);
    expect(root).toBeTruthy();
  });

  it("keeps a file the user gave in this run, also when reached through a symlink", async () => {
    const { data, elsewhere } = setup();
    const given = join(elsewhere, "given.txt");
    symlinkSync(given, join(elsewhere, "given-link"));
    const fence = await ToolPathFence.create(data, [join(elsewhere, "given-link")]);
    expect(await fence.check(given)).toEqual({ ok: true, path: given });
    expect((await fence.check(join(elsewhere, "secret.txt"))).ok).toBe(false);
  });
});
