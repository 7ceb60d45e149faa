import { describe, expect, it } from "vitest";
import { PressedButtons } from "./pressed.js";

describe("PressedButtons", () => {
  it("holds a button pressed until released; a second press waits", () => {
    const pressed = new PressedButtons();
    const press = { blipId: "x/a", actionId: "retry" };
    expect(pressed.press(press)).toBe(true);
    expect(pressed.isPressed(press)).toBe(true);
    expect(pressed.press(press)).toBe(false);
    expect(pressed.anyOn("x/a")).toBe(true);
    pressed.release(press);
    expect(pressed.isPressed(press)).toBe(false);
    expect(pressed.anyOn("x/a")).toBe(false);
  });

  it("tells the same action on two rows apart", () => {
    const pressed = new PressedButtons();
    pressed.press({ blipId: "x/l", actionId: "approve", itemId: "1" });
    expect(pressed.isPressed({ blipId: "x/l", actionId: "approve", itemId: "2" })).toBe(false);
    expect(pressed.isPressed({ blipId: "x/l", actionId: "approve" })).toBe(false);
  });
});
