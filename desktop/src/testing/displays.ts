/** Displays as Electron's `screen` reports them, for tests. */
import type { Display } from "../electron-api.js";

/** A 14-inch MacBook Pro: built in, a 37-point menu bar around the notch. */
export const MACBOOK_NOTCHED: Display = {
  id: 1,
  internal: true,
  label: "Built-in Retina Display",
  bounds: { x: 0, y: 0, width: 1512, height: 982 },
  workArea: { x: 0, y: 37, width: 1512, height: 945 },
};

/** A MacBook Air without a notch: a 24-point menu bar. */
export const MACBOOK_PLAIN: Display = {
  id: 3,
  internal: true,
  bounds: { x: 0, y: 0, width: 1440, height: 900 },
  workArea: { x: 0, y: 24, width: 1440, height: 876 },
};

/** An external display to the right of the laptop and 200 points higher, with a 25-point menu bar. */
export const EXTERNAL_4K: Display = {
  id: 2,
  internal: false,
  label: "LG UltraFine",
  bounds: { x: 1512, y: -200, width: 2560, height: 1440 },
  workArea: { x: 1512, y: -175, width: 2560, height: 1415 },
};

/** A Windows laptop: no menu bar, a 48-point task bar at the bottom. */
export const WINDOWS_LAPTOP: Display = {
  id: 7,
  internal: true,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1032 },
};
