import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GivenFiles, MAX_GIVEN_FILES, isHandleRef } from "./given-files.js";
import { ToolError } from "./tool-error.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "svc-given-")));
  await writeFile(join(dir, "a.txt"), "a");
  await mkdir(join(dir, "folder"));
  await symlink(join(dir, "a.txt"), join(dir, "link.txt"));
  await symlink(join(dir, "gone.txt"), join(dir, "dangling.txt"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The ToolError a call throws, as `{kind, message}`. */
async function failure(work: () => unknown): Promise<{ kind: string; message: string }> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return { kind: (error as ToolError).kind, message: (error as ToolError).message };
  }
  throw new Error("expected a ToolError");
}

describe("files the person gave, by handle", () => {
  it("hands out a new unguessable handle per gift, standing for the file's real path", async () => {
    const given = new GivenFiles();
    const a = await given.give(join(dir, "a.txt"));
    const again = await given.give(join(dir, "a.txt"));
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(again).not.toBe(a);
    expect(a).not.toContain("a.txt");
    expect(given.pathOf(a, "handle")).toBe(join(dir, "a.txt"));
    // A symlink grants the file it points to, never the link's own name.
    expect(given.pathOf(await given.give(join(dir, "link.txt")), "handle")).toBe(join(dir, "a.txt"));
  });

  it("refuses what is not an existing regular file, at an absolute path", async () => {
    const given = new GivenFiles();
    expect(await failure(() => given.give(join(dir, "missing.txt")))).toEqual({
      kind: "invalid",
      message: `"path": ${join(dir, "missing.txt")} does not exist`,
    });
    expect(await failure(() => given.give(join(dir, "dangling.txt")))).toEqual({
      kind: "invalid",
      message: `"path": ${join(dir, "dangling.txt")} does not exist`,
    });
    expect(await failure(() => given.give(join(dir, "folder")))).toEqual({
      kind: "invalid",
      message: `"path": ${join(dir, "folder")} is not a file (folders and devices cannot be given to a tool)`,
    });
    for (const path of ["a.txt", "", 42, undefined]) {
      expect(await failure(() => given.give(path))).toEqual({
        kind: "invalid",
        message: '"path" should be the absolute path of a file',
      });
    }
    expect(given.size).toBe(0);
  });

  it("says a handle is unknown, and what a handle should be", async () => {
    const given = new GivenFiles();
    expect(await failure(() => given.pathOf("A".repeat(24), "values.file[0].handle"))).toEqual({
      kind: "invalid",
      message: `"values.file[0].handle": this file is not known to svc any more (svc forgets given files when it restarts, and after 1,000 newer ones): drop or choose it again`,
    });
    for (const bad of ["short", "A".repeat(25), "../../etc/passwd/aaaaaaaaa", 7, null]) {
      expect(await failure(() => given.pathOf(bad, "handle"))).toEqual({
        kind: "invalid",
        message: '"handle" should be a file handle from the svc app',
      });
    }
  });

  it(`remembers ${MAX_GIVEN_FILES} files, forgetting the oldest one past that`, async () => {
    const given = new GivenFiles();
    const handles: string[] = [];
    for (let i = 0; i < MAX_GIVEN_FILES; i++) handles.push(await given.give(join(dir, "a.txt")));
    expect(given.size).toBe(MAX_GIVEN_FILES);
    expect(given.pathOf(handles[0], "handle")).toBe(join(dir, "a.txt"));
    await given.give(join(dir, "a.txt"));
    expect(given.size).toBe(MAX_GIVEN_FILES);
    expect((await failure(() => given.pathOf(handles[0], "handle"))).message).toContain("is not known to svc any more");
    expect(given.pathOf(handles[1], "handle")).toBe(join(dir, "a.txt"));
  });

  it("knows the wire's {handle} shape", () => {
    expect(isHandleRef({ handle: "x" })).toBe(true);
    expect(isHandleRef({ handle: "x", name: "a.txt" })).toBe(false);
    expect(isHandleRef("/a.txt")).toBe(false);
    expect(isHandleRef([{ handle: "x" }])).toBe(false);
    expect(isHandleRef(null)).toBe(false);
  });
});
