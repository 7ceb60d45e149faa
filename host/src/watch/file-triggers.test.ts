import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileTriggers, checkWatchPaths, expandHome } from "./file-triggers.js";
import { QuietBatch } from "./debounce.js";
import { extensionFolderOf, reloadedFolderOf } from "./extension-watcher.js";

describe("watch path checks", () => {
  it("expands ~ only at the start", () => {
    expect(expandHome("~", "/h")).toBe("/h");
    expect(expandHome("~/a", "/h")).toBe("/h/a");
    expect(expandHome("/x/~/a", "/h")).toBe("/x/~/a");
  });

  it("allows paths inside permissions.files, ~ expanded on both sides", () => {
    expect(checkWatchPaths(["~/notes/today", "/h/notes"], ["~/notes"], "/h")).toEqual({
      allowed: ["/h/notes/today", "/h/notes"],
      errors: [],
    });
  });

  it("resolves both lists as the file fence does, and never watches inside svc's own folder", async () => {
    const home = await realpath(await mkdtemp(join(tmpdir(), "svc-watch-home-")));
    try {
      const fence = { supportDir: join(home, ".local/share/Svc"), dataDir: join(home, ".local/share/Svc/Data/a.b") };
      await mkdir(fence.dataDir, { recursive: true });
      expect(
        checkWatchPaths(
          [
            "~/Documents/../notes",
            "~/.local/share/Svc",
            "~//.local/share/Svc/webhook.json",
            "~/.local/share/Svc/Data/a.b",
          ],
          ["~/Projects/../"],
          home,
          fence,
        ),
      ).toEqual({
        allowed: [join(home, "notes"), fence.dataDir],
        errors: [
          `triggers.watch "~/.local/share/Svc" is not watched: it is inside svc's own folder, which no extension may read`,
          `triggers.watch "~//.local/share/Svc/webhook.json" is not watched: it is inside svc's own folder, which no extension may read`,
        ],
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("refuses the rest with the fix", () => {
    expect(checkWatchPaths(["/h/notes-old", "/etc"], ["~/notes"], "/h")).toEqual({
      allowed: [],
      errors: [
        'triggers.watch "/h/notes-old" is not watched: it is not inside permissions.files; add "/h/notes-old" to svc.permissions.files',
        'triggers.watch "/etc" is not watched: it is not inside permissions.files; add "/etc" to svc.permissions.files',
      ],
    });
  });

  it("reloads for package.json, dist/ and the folder itself, never for src/ or a README", () => {
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/dist/index.js")).toBe("/r/u/ext");
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/dist")).toBe("/r/u/ext");
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/package.json")).toBe("/r/u/ext");
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext")).toBe("/r/u/ext");
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/src/index.ts")).toBeUndefined();
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/README.md")).toBeUndefined();
    expect(reloadedFolderOf(["/r/u"], "/r/u/ext/package.json.tmp")).toBeUndefined();
  });

  it("maps a changed path to its extension folder", () => {
    expect(extensionFolderOf(["/r/b", "/r/u"], "/r/u/ext/dist/index.js")).toBe("/r/u/ext");
    expect(extensionFolderOf(["/r/b"], "/r/b")).toBeUndefined();
    expect(extensionFolderOf(["/r/b"], "/elsewhere/x")).toBeUndefined();
  });
});

describe("QuietBatch", () => {
  it("hands over a burst once, after it has been quiet", async () => {
    const batches: string[][] = [];
    const batch = new QuietBatch<string>(30, (items) => batches.push(items));
    batch.add("a");
    await new Promise((r) => setTimeout(r, 10));
    batch.add("b");
    batch.add("a");
    expect(batches).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(batches).toEqual([["a", "b"]]);
  });
});

describe("FileTriggers", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-watch-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("delivers the changed paths of a burst in one sorted event, and nothing after remove", async () => {
    const triggers = new FileTriggers();
    const events: string[][] = [];
    await triggers.set("a.b", [dir], (paths) => events.push(paths));
    await writeFile(join(dir, "z.txt"), "1");
    await writeFile(join(dir, "a.txt"), "1");
    await expect.poll(() => events, { timeout: 3000 }).toEqual([[join(dir, "a.txt"), join(dir, "z.txt")]]);
    await triggers.remove("a.b");
    await writeFile(join(dir, "later.txt"), "1");
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toHaveLength(1);
    await triggers.dispose();
  });

  it("a watched folder holding svc's own folder reports nothing from inside it but the extension's data folder", async () => {
    const fence = { supportDir: join(dir, "Svc"), dataDir: join(dir, "Svc", "Data", "a.b") };
    await mkdir(fence.dataDir, { recursive: true });
    const triggers = new FileTriggers();
    const events: string[][] = [];
    await triggers.set("a.b", [dir], (paths) => events.push(paths), fence);
    await writeFile(join(fence.supportDir, "webhook.json"), "{}");
    await writeFile(join(fence.dataDir, "mine.txt"), "1");
    await writeFile(join(dir, "a.txt"), "1");
    await expect
      .poll(() => events.flat().sort(), { timeout: 3000 })
      .toEqual([join(dir, "Svc", "Data", "a.b", "mine.txt"), join(dir, "a.txt")].sort());
    await triggers.dispose();
  });
});
