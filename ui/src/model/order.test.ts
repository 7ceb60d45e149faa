import { describe, expect, it } from "vitest";
import { compactBlips, orderBlips } from "./order.js";

describe("orderBlips", () => {
  it("keeps arrival order, pushed blips at the end", () => {
    const arrival = new Map([
      ["p/1", 0],
      ["e/b", 1],
      ["e/a", 2],
    ]);
    const blips = [
      { id: "e/a", source: "extension" as const },
      { id: "p/1", source: "push" as const },
      { id: "e/b", source: "extension" as const },
    ];
    expect(orderBlips(blips, arrival).map((b) => b.id)).toEqual(["e/b", "e/a", "p/1"]);
  });

  it("compact shows the first live blips only", () => {
    const ordered = [
      { id: "a", source: "extension" as const, ended: true },
      { id: "b", source: "extension" as const, ended: false },
      { id: "c", source: "extension" as const, ended: false },
      { id: "d", source: "extension" as const, ended: false },
    ];
    expect(compactBlips(ordered).map((b) => b.id)).toEqual(["b", "c"]);
  });
});
