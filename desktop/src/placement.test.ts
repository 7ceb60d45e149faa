import { describe, expect, it } from "vitest";
import type { Display } from "./electron-api.js";
import {
  chooseDisplay,
  DEFAULT_NOTCH_WIDTH,
  DEFAULT_PILL_HEIGHT,
  FLOATING_GAP,
  hasNotch,
  layoutNotch,
  menuBarHeight,
  PANEL,
} from "./placement.js";
import { MACBOOK_NOTCHED, EXTERNAL_4K, MACBOOK_PLAIN, WINDOWS_LAPTOP } from "./testing/displays.js";

describe("notch detection", () => {
  it("finds a notch only on a Mac's built-in display with a tall menu bar", () => {
    expect(menuBarHeight(MACBOOK_NOTCHED)).toBe(37);
    expect(hasNotch(MACBOOK_NOTCHED, "darwin")).toBe(true);
    expect(hasNotch(MACBOOK_PLAIN, "darwin")).toBe(false); // 24-point menu bar
    expect(hasNotch(EXTERNAL_4K, "darwin")).toBe(false); // not built in
    expect(hasNotch(MACBOOK_NOTCHED, "linux")).toBe(false);
    expect(hasNotch({ ...MACBOOK_NOTCHED, workArea: { ...MACBOOK_NOTCHED.workArea, y: 30 } }, "darwin")).toBe(true); // at the limit
    expect(hasNotch({ ...MACBOOK_NOTCHED, workArea: { ...MACBOOK_NOTCHED.workArea, y: 29 } }, "darwin")).toBe(false); // one below
    // A hidden menu bar tells nothing: floating.
    expect(hasNotch({ ...MACBOOK_NOTCHED, workArea: MACBOOK_NOTCHED.bounds }, "darwin")).toBe(false);
  });
});

describe("layout", () => {
  it("hangs the notch from the top centre of a notched display, as tall as the menu bar", () => {
    expect(layoutNotch(MACBOOK_NOTCHED, "auto", "darwin")).toEqual({
      displayId: 1,
      style: "notch",
      window: { x: (1512 - PANEL.width) / 2, y: 0, width: PANEL.width, height: PANEL.height },
      pill: { x: (PANEL.width - DEFAULT_NOTCH_WIDTH) / 2, y: 0, width: DEFAULT_NOTCH_WIDTH, height: 37 },
    });
  });

  it("floats under the menu bar elsewhere, on the display's own coordinates", () => {
    // An external display to the right of the laptop, its menu bar 25 points tall.
    expect(layoutNotch(EXTERNAL_4K, "auto", "darwin")).toEqual({
      displayId: 2,
      style: "floating",
      window: {
        x: 1512 + (2560 - PANEL.width) / 2,
        y: -200 + 25 + FLOATING_GAP,
        width: PANEL.width,
        height: PANEL.height,
      },
      pill: {
        x: (PANEL.width - DEFAULT_NOTCH_WIDTH) / 2,
        y: 0,
        width: DEFAULT_NOTCH_WIDTH,
        height: DEFAULT_PILL_HEIGHT,
      },
    });
    // Windows: no menu bar, the task bar at the bottom.
    expect(layoutNotch(WINDOWS_LAPTOP, "auto", "win32").window).toEqual({
      x: (1920 - PANEL.width) / 2,
      y: FLOATING_GAP,
      width: PANEL.width,
      height: PANEL.height,
    });
  });

  it("follows the style setting over what the display has", () => {
    expect(layoutNotch(MACBOOK_NOTCHED, "floating", "darwin").style).toBe("floating");
    expect(layoutNotch(MACBOOK_NOTCHED, "floating", "darwin").window.y).toBe(37 + FLOATING_GAP);
    const forced = layoutNotch(MACBOOK_PLAIN, "notch", "darwin");
    expect(forced.style).toBe("notch");
    expect(forced.window.y).toBe(0);
    expect(forced.pill.height).toBe(24);
    expect(layoutNotch(WINDOWS_LAPTOP, "notch", "win32").pill.height).toBe(DEFAULT_PILL_HEIGHT);
  });

  it("never reaches past a small display", () => {
    const small: Display = {
      id: 9,
      internal: false,
      bounds: { x: 0, y: 0, width: 600, height: 400 },
      workArea: { x: 0, y: 0, width: 600, height: 400 },
    };
    expect(layoutNotch(small, "auto", "linux")).toEqual({
      displayId: 9,
      style: "floating",
      window: { x: 0, y: FLOATING_GAP, width: 600, height: 400 - FLOATING_GAP },
      pill: { x: 200, y: 0, width: 200, height: DEFAULT_PILL_HEIGHT },
    });
  });
});

describe("choosing the display", () => {
  const all = [EXTERNAL_4K, MACBOOK_NOTCHED];
  it("takes the one the setting names, else the primary", () => {
    expect(chooseDisplay(all, EXTERNAL_4K, "primary")).toBe(EXTERNAL_4K);
    expect(chooseDisplay(all, EXTERNAL_4K, "built-in")).toBe(MACBOOK_NOTCHED);
    expect(chooseDisplay([EXTERNAL_4K], EXTERNAL_4K, "built-in")).toBe(EXTERNAL_4K);
    expect(chooseDisplay(all, MACBOOK_NOTCHED, 2)).toBe(EXTERNAL_4K);
    expect(chooseDisplay([MACBOOK_NOTCHED], MACBOOK_NOTCHED, 2)).toBe(MACBOOK_NOTCHED); // unplugged
  });
});
