import { describe, expect, it } from "vitest";
import { DismissedItems } from "./dismissed.js";

describe("DismissedItems", () => {
  it("keeps a row out until the update carrying the answer's seq", () => {
    const items = new DismissedItems();
    items.dismiss("x/list", "pr-1", 4);
    expect(items.isDismissed("x/list", "pr-1")).toBe(true);
    items.blipUpdated("x/list", 5); // an update from before the answer
    expect(items.isDismissed("x/list", "pr-1")).toBe(true);
    items.answered("x/list", "pr-1", { "x/list": 7 });
    items.blipUpdated("x/list", 6);
    expect(items.isDismissed("x/list", "pr-1")).toBe(true);
    items.blipUpdated("x/list", 7);
    expect(items.isDismissed("x/list", "pr-1")).toBe(false);
  });

  it("without a seq in the answer, waits for the next update after the answer", () => {
    const items = new DismissedItems();
    items.dismiss("x/list", "pr-1", 4);
    items.blipUpdated("x/list", 5);
    expect(items.isDismissed("x/list", "pr-1")).toBe(true);
    items.answered("x/list", "pr-1", {});
    items.blipUpdated("x/list", 6);
    expect(items.isDismissed("x/list", "pr-1")).toBe(false);
  });

  it("brings the row back at once when the action fails", () => {
    const items = new DismissedItems();
    items.dismiss("x/list", "pr-1", 4);
    items.failed("x/list", "pr-1");
    expect(items.isDismissed("x/list", "pr-1")).toBe(false);
  });

  it("keeps rows of other blips apart and forgets a removed blip's rows", () => {
    const items = new DismissedItems();
    items.dismiss("x/a", "1", 1);
    items.dismiss("x/b", "1", 1);
    items.answered("x/a", "1", { "x/a": 2 });
    items.blipUpdated("x/b", 9);
    expect(items.isDismissed("x/b", "1")).toBe(true);
    items.forget("x/b");
    expect(items.isDismissed("x/b", "1")).toBe(false);
    expect(items.isDismissed("x/a", "1")).toBe(true);
  });
});
