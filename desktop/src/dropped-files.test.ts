import { describe, expect, it } from "vitest";
import { DroppedFiles, MAX_DROPPED_FILES } from "./dropped-files.js";

describe("dropped files, as places openFile may open", () => {
  it("remembers each dropped path once", () => {
    const dropped = new DroppedFiles();
    dropped.remember("/Users/ann/a.pdf");
    dropped.remember("/Users/ann/b.pdf");
    dropped.remember("/Users/ann/a.pdf");
    expect([...dropped.paths()]).toEqual(["/Users/ann/b.pdf", "/Users/ann/a.pdf"]);
  });

  it(`remembers ${MAX_DROPPED_FILES} files, forgetting the oldest past that`, () => {
    const dropped = new DroppedFiles();
    for (let i = 0; i < MAX_DROPPED_FILES; i++) dropped.remember(`/f/${i}`);
    expect(dropped.paths().size).toBe(MAX_DROPPED_FILES);
    expect(dropped.paths().has("/f/0")).toBe(true);
    dropped.remember("/f/one-more");
    expect(dropped.paths().size).toBe(MAX_DROPPED_FILES);
    expect(dropped.paths().has("/f/0")).toBe(false);
    expect(dropped.paths().has("/f/1")).toBe(true);
    expect(dropped.paths().has("/f/one-more")).toBe(true);
  });
});
