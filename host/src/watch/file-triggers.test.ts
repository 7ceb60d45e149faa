import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
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
    await triggers.close();
  });
});
