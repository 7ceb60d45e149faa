import { describe, expect, it } from "vitest";
import { COMMAND_CHANNEL } from "./channels.js";
import { NotchWindow, WINDOW_LEVEL, windowOptions } from "./notch-window.js";
import { DEFAULT_NOTCH_WIDTH, FLOATING_GAP, PANEL } from "./placement.js";
import { DEFAULT_SETTINGS, type DesktopSettings } from "./settings.js";
import { EXTERNAL_4K, MACBOOK_NOTCHED } from "./testing/displays.js";
import { createElectronDouble, type FakeBrowserWindow } from "./testing/electron-double.js";

function notchOn(
  displays = [MACBOOK_NOTCHED, EXTERNAL_4K],
  settings: Partial<DesktopSettings> = {},
  platform: NodeJS.Platform = "darwin",
) {
  const electron = createElectronDouble(displays);
  const notch = new NotchWindow({
    BrowserWindow: electron.BrowserWindow,
    screen: electron.screen,
    platform,
    preload: "/app/dist/preload.cjs",
    settings: { ...DEFAULT_SETTINGS, ...settings },
  });
  return { electron, notch, win: notch.window as unknown as FakeBrowserWindow };
}

describe("the notch window", () => {
  it("is made by the recipe: frameless, transparent, fixed, out of the task bar, a panel on macOS", () => {
    const { win } = notchOn();
    expect(win.options).toMatchObject({
      show: false,
      frame: false,
      transparent: true,
      backgroundColor: "#00000000",
      hasShadow: false,
      resizable: false,
      movable: false,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
      skipTaskbar: true,
      alwaysOnTop: true,
      enableLargerThanScreen: true,
      type: "panel",
      webPreferences: {
        preload: "/app/dist/preload.cjs",
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
      },
    });
    expect(win.alwaysOnTop).toEqual([true, "main-menu", 2]);
    expect(WINDOW_LEVEL).toEqual({ level: "main-menu", relativeLevel: 2 });
    expect(notchOn([MACBOOK_NOTCHED], {}, "win32").win.options.type).toBeUndefined();
    // skipTaskbar is darwin and win32 only: on Linux a toolbar window stays out of the task bar and Alt-Tab.
    expect(notchOn([MACBOOK_NOTCHED], {}, "linux").win.options.type).toBe("toolbar");
  });

  it("on Linux, where a click-through window never sees the pointer, is the pill alone while collapsed and takes clicks", async () => {
    const { win, notch } = notchOn([EXTERNAL_4K], {}, "linux");
    const { window, pill } = notch.layout;
    const pillBounds = { x: window.x + pill.x, y: window.y + pill.y, width: pill.width, height: pill.height };
    expect(win.clickThrough).toEqual([false]);
    expect(win.bounds).toEqual(pillBounds);
    expect(win.ignoreMouse.some(([, options]) => (options as { forward?: boolean })?.forward)).toBe(false);
    notch.setClickThrough(true); // the page's hover signal changes nothing here
    expect(win.clickThrough).toEqual([false]);
    notch.expand();
    expect(win.bounds).toEqual(window);
    notch.collapse();
    expect(win.bounds).toEqual(pillBounds);
    expect(win.clickThrough).toEqual([false]);
  });

  it("starts collapsed: click-through with the pointer's moves forwarded, hidden until loaded", () => {
    const { win, notch } = notchOn();
    expect(win.clickThrough).toEqual([true, { forward: true }]);
    expect(notch.expanded).toBe(false);
    expect(win.visible).toBe(false);
  });

  it("sits at the top centre of the chosen display, in notch style on a notch and floating elsewhere", () => {
    const onLaptop = notchOn();
    expect(onLaptop.notch.layout.style).toBe("notch");
    expect(onLaptop.win.bounds).toEqual({
      x: (1512 - PANEL.width) / 2,
      y: 0,
      width: PANEL.width,
      height: PANEL.height,
    });
    const onExternal = notchOn([MACBOOK_NOTCHED, EXTERNAL_4K], { display: 2 });
    expect(onExternal.notch.layout.style).toBe("floating");
    expect(onExternal.win.bounds).toEqual({
      x: 1512 + (2560 - PANEL.width) / 2,
      y: -175 + FLOATING_GAP,
      width: PANEL.width,
      height: PANEL.height,
    });
    expect(onExternal.notch.layout.pill.width).toBe(DEFAULT_NOTCH_WIDTH);
  });

  it('with display "pointer" opens on the display under the pointer (X11, macOS), the primary one where it is not known (native Wayland)', () => {
    const { electron, notch } = notchOn([MACBOOK_NOTCHED, EXTERNAL_4K], { display: "pointer" }, "linux");
    electron.screen.cursor = { x: EXTERNAL_4K.bounds.x + 100, y: EXTERNAL_4K.bounds.y + 100 };
    notch.open("open");
    expect(notch.layout.displayId).toBe(EXTERNAL_4K.id);
    notch.collapse();
    electron.screen.cursor = { x: 10, y: 10 };
    notch.open("open");
    expect(notch.layout.displayId).toBe(MACBOOK_NOTCHED.id);

    const electron2 = createElectronDouble([MACBOOK_NOTCHED, EXTERNAL_4K]);
    electron2.screen.cursor = { x: EXTERNAL_4K.bounds.x + 100, y: EXTERNAL_4K.bounds.y + 100 };
    const onWayland = new NotchWindow({
      BrowserWindow: electron2.BrowserWindow,
      screen: electron2.screen,
      platform: "linux",
      preload: "/p",
      settings: { ...DEFAULT_SETTINGS, display: "pointer" },
      pointerKnown: false,
    });
    onWayland.open("open");
    expect(onWayland.layout.displayId).toBe(MACBOOK_NOTCHED.id);
  });

  it("is laid out again when a display is unplugged, plugged back or changed", () => {
    const { electron, notch, win } = notchOn([MACBOOK_NOTCHED, EXTERNAL_4K], { display: 2 });
    expect(notch.layout.displayId).toBe(2);
    electron.screen.unplug(2);
    expect(notch.layout).toMatchObject({ displayId: 1, style: "notch" });
    expect(win.bounds.y).toBe(0);
    electron.screen.plug(EXTERNAL_4K);
    expect(notch.layout).toMatchObject({ displayId: 2, style: "floating" });
    // The external display moves to the left of the laptop.
    electron.screen.change({
      ...EXTERNAL_4K,
      bounds: { ...EXTERNAL_4K.bounds, x: -2560 },
      workArea: { ...EXTERNAL_4K.workArea, x: -2560 },
    });
    expect(win.bounds.x).toBe(-2560 + (2560 - PANEL.width) / 2);
    notch.dispose();
    expect(
      electron.screen.listenerCount("display-added") +
        electron.screen.listenerCount("display-removed") +
        electron.screen.listenerCount("display-metrics-changed"),
    ).toBe(0);
    expect(win.destroyed).toBe(true);
  });

  it("hides in fullscreen and keeps out of screen capture as the settings say", () => {
    const { notch, win } = notchOn();
    expect(win.workspaces).toEqual([true, { visibleOnFullScreen: false, skipTransformProcessType: true }]);
    expect(win.contentProtection).toBe(false);
    notch.applySettings({ ...DEFAULT_SETTINGS, hideInFullscreen: false, excludeFromCapture: true, style: "floating" });
    expect(win.workspaces).toEqual([true, { visibleOnFullScreen: true, skipTransformProcessType: true }]);
    expect(win.contentProtection).toBe(true);
    expect(win.bounds.y).toBe(37 + FLOATING_GAP);
  });

  it("loads the UI and shows itself without taking focus; expanding takes the mouse, never the focus", async () => {
    const { notch, win } = notchOn();
    await notch.load("http://127.0.0.1:47900/#t=abc");
    expect(notch.uiOrigin).toBe("http://127.0.0.1:47900");
    expect(win.calls).toEqual(["showInactive"]);
    notch.expand();
    expect(win.clickThrough).toEqual([false]);
    notch.setClickThrough(true); // ignored while open
    expect(win.clickThrough).toEqual([false]);
    notch.collapse();
    expect(win.clickThrough).toEqual([true, { forward: true }]);
    notch.setClickThrough(false); // the pointer is over the pill
    expect(win.clickThrough).toEqual([false, undefined]);
    notch.setClickThrough(true);
    expect(win.clickThrough).toEqual([true, { forward: true }]);
    expect(win.calls).toEqual(["showInactive"]);
  });

  it("opens and takes focus when the person asks, and tells the page what to show", async () => {
    const { notch, win } = notchOn();
    await notch.load("http://127.0.0.1:47900/#t=abc");
    notch.open("open");
    expect(win.calls).toEqual(["showInactive", "focus"]);
    expect(notch.expanded).toBe(true);
    notch.open("settings");
    expect(win.webContents.sent).toEqual([
      [COMMAND_CHANNEL, "open"],
      [COMMAND_CHANNEL, "settings"],
    ]);
  });

  it("gives its window options the first layout's bounds", () => {
    const { notch } = notchOn();
    expect(windowOptions(notch.layout, "/p.cjs", "win32")).toMatchObject({ ...notch.layout.window, skipTaskbar: true });
  });
});
