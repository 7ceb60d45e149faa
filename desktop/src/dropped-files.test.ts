import { describe, expect, it } from "vitest";
import { DroppedFiles, MAX_DROPPED_FILES } from "./dropped-files.js";

describe("dropped files", () => {
  it("gives each drop its own opaque handle", () => {
    const dropped = new DroppedFiles();
    const a = dropped.register("/Users/ann/a.pdf");
    const b = dropped.register("/Users/ann/a.pdf");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain("ann");
    expect(dropped.pathOf(a)).toBe("/Users/ann/a.pdf");
    expect(dropped.pathOf("made-up")).toBeUndefined();
    expect([...dropped.paths()]).toEqual(["/Users/ann/a.pdf"]);
  });

  it(`remembers ${MAX_DROPPED_FILES} files, forgetting the oldest past that`, () => {
    const dropped = new DroppedFiles();
    const handles = Array.from({ length: MAX_DROPPED_FILES }, (_, i) => dropped.register(`/f/${i}`));
    expect(dropped.pathOf(handles[0]!)).toBe("/f/0");
    expect(dropped.paths().size).toBe(MAX_DROPPED_FILES);
    dropped.register("/f/one-more");
    expect(dropped.pathOf(handles[0]!)).toBeUndefined();
    expect(dropped.pathOf(handles[1]!)).toBe("/f/1");
    expect(dropped.paths().size).toBe(MAX_DROPPED_FILES);
  });
});
