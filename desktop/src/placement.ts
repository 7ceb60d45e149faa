/**
 * Where the notch window goes: the chosen display, top centre, in notch style where the display
 * has a notch and floating elsewhere. Electron has no notch API (UI.md "Electron"): a display
 * has one when it is a Mac's built-in display whose menu bar is taller than a plain one (the
 * menu bar of a notched MacBook is 32–38 points, of any other Mac 24–25); the notch is then
 * the menu bar's height tall and {@link DEFAULT_NOTCH_WIDTH} wide.
 */
import type { Display, Rectangle } from "./electron-api.js";
import type { DesktopSettings } from "./settings.js";

/** The window: big enough for the opened notch; transparent and click-through around it. */
export const PANEL = Object.freeze({ width: 680, height: 480 });
/** A MacBook notch is about 185–200 points wide. */
export const DEFAULT_NOTCH_WIDTH = 200;
/** The pill's height where there is no menu bar to match. */
export const DEFAULT_PILL_HEIGHT = 32;
/** A menu bar at least this tall means a notched display. */
export const NOTCHED_MENU_BAR_MIN = 30;
/** The floating pill's gap below the top of the work area. */
export const FLOATING_GAP = 6;

export interface NotchLayout {
  displayId: number;
  style: "notch" | "floating";
  /** The window's bounds, in DIP points. */
  window: Rectangle;
  /** The pill (the notch, or the floating pill) inside the window, from its top left. */
  pill: Rectangle;
}

/** The menu bar's height: the gap between the display's top and its work area's (0 when hidden). */
export function menuBarHeight(display: Display): number {
  return Math.max(0, display.workArea.y - display.bounds.y);
}

export function hasNotch(display: Display, platform: NodeJS.Platform): boolean {
  return platform === "darwin" && display.internal && menuBarHeight(display) >= NOTCHED_MENU_BAR_MIN;
}

/**
 * The display the setting names; the primary one when it names none that is connected.
 * `pointer` is the display under the pointer (`underPointer`), where the system tells it (X11,
 * macOS, Windows; a native Wayland client is not told: the primary one).
 */
export function chooseDisplay(
  displays: readonly Display[],
  primary: Display,
  wanted: DesktopSettings["display"],
  underPointer?: () => Display,
): Display {
  if (wanted === "pointer") return underPointer?.() ?? primary;
  if (wanted === "built-in") return displays.find((display) => display.internal) ?? primary;
  if (typeof wanted === "number") return displays.find((display) => display.id === wanted) ?? primary;
  return primary;
}

/**
 * @example
 * layoutNotch(screen.getPrimaryDisplay(), "auto", process.platform)
 * // a notched MacBook: {style: "notch", window: {x: 416, y: 0, width: 680, height: 480}, pill: {x: 240, y: 0, width: 200, height: 37}}
 */
export function layoutNotch(display: Display, style: DesktopSettings["style"], platform: NodeJS.Platform): NotchLayout {
  const notched = style === "notch" || (style === "auto" && hasNotch(display, platform));
  const { bounds, workArea } = display;
  const width = Math.min(PANEL.width, bounds.width);
  const x = bounds.x + Math.floor((bounds.width - width) / 2);
  const pillHeight = notched ? menuBarHeight(display) || DEFAULT_PILL_HEIGHT : DEFAULT_PILL_HEIGHT;
  const pillWidth = Math.min(DEFAULT_NOTCH_WIDTH, width);
  // The notch hangs from the display's very top (over the menu bar); a floating pill sits just
  // under the menu bar, or under the top edge where there is none.
  const y = notched ? bounds.y : workArea.y + FLOATING_GAP;
  const height = Math.min(PANEL.height, bounds.y + bounds.height - y);
  return {
    displayId: display.id,
    style: notched ? "notch" : "floating",
    window: { x, y, width, height },
    pill: { x: Math.floor((width - pillWidth) / 2), y: 0, width: pillWidth, height: pillHeight },
  };
}
