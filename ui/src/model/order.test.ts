import { describe, expect, it } from "vitest";
import { orderBlips } from "./order.js";

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
  // The collapsed notch's choice (live blips only, the one that matters most) is ears.test.ts's.
});
