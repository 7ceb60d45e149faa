import { describe, expect, it } from "vitest";
import { ICON_NAMES } from "@svc/api";
import { ICONS } from "./map.js";

describe("the icon table", () => {
  it("draws exactly the names @svc/api declares", () => {
    expect(Object.keys(ICONS).sort()).toEqual([...ICON_NAMES].sort());
  });

  it("gives every name a Lucide drawing of svg shapes", () => {
    const shapes = new Set(["path", "circle", "rect", "line", "polyline", "polygon", "ellipse"]);
    for (const name of ICON_NAMES) {
      const node = ICONS[name];
      expect(node.length, name).toBeGreaterThan(0);
      for (const [tag] of node) expect(shapes.has(tag), `${name}: ${tag}`).toBe(true);
    }
  });
});
