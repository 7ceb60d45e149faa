import { describe, expect, it } from "vitest";
import { loadRecent, noteRecent, recentTools, RECENT_MAX, saveRecent } from "./recent.js";

describe("recent tools", () => {
  it("moves a used tool to the front, keeps RECENT_MAX, drops the oldest past it", () => {
    let recent: string[] = [];
    for (const id of ["a", "b", "c", "d", "e"]) recent = noteRecent(recent, id);
    expect(recent).toEqual(["e", "d", "c", "b", "a"]);
    expect(recent).toHaveLength(RECENT_MAX);
    expect(noteRecent(recent, "c")).toEqual(["c", "e", "d", "b", "a"]);
    expect(noteRecent(recent, "f")).toEqual(["f", "e", "d", "c", "b"]);
  });

  it("lists only tools that still exist, in recent order", () => {
    expect(recentTools([{ id: "a" }, { id: "b" }], ["b", "gone", "a"]).map((t) => t.id)).toEqual(["b", "a"]);
  });

  it("reads back what it stored and ignores anything else", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    saveRecent(storage, ["x", "y"]);
    expect(loadRecent(storage)).toEqual(["x", "y"]);
    store.set("svc.recentTools", "{not json");
    expect(loadRecent(storage)).toEqual([]);
    store.set("svc.recentTools", JSON.stringify([1, "z"]));
    expect(loadRecent(storage)).toEqual(["z"]);
  });
});
