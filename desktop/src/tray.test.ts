import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ShortcutBinding } from "./shortcut.js";
import { ShellTray, trayIconFile, trayMenu } from "./tray.js";
import { createElectronDouble, FakeGlobalShortcut, type FakeTray } from "./testing/electron-double.js";
import { MACBOOK_NOTCHED } from "./testing/displays.js";

const MENU = ["Open svc", "Settings…", "separator", "Pause updates", "separator", "Quit svc"];

describe("the tray icon", () => {
  function tray(platform: NodeJS.Platform = "linux") {
    const electron = createElectronDouble([MACBOOK_NOTCHED]);
    const calls: string[] = [];
    const shell = new ShellTray({
      Tray: electron.Tray,
      Menu: electron.Menu,
      nativeImage: electron.nativeImage,
      iconPath: `/app/assets/${trayIconFile(platform)}`,
      platform,
      actions: {
        open: () => calls.push("open"),
        settings: () => calls.push("settings"),
        setPaused: (p) => calls.push(`paused ${p}`),
        quit: () => calls.push("quit"),
      },
    });
    const icon = (electron.Tray as unknown as { all: FakeTray[] }).all[0]!;
    return { shell, icon, calls };
  }

  it("on macOS: a template image; a left click opens the notch, the right click pops up the menu", () => {
    const { icon, calls } = tray("darwin");
    expect(icon.image).toMatchObject({ path: "/app/assets/trayTemplate.png", template: true });
    // setContextMenu would bind the menu to the left click too (and no click event would come).
    expect(icon.menu).toBeNull();
    icon.emit("click");
    expect(calls).toEqual(["open"]);
    icon.emit("right-click");
    expect(icon.poppedUp.at(-1)!.items.map((item) => item.label ?? item.type)).toEqual(MENU);
  });

  it("on Linux and Windows: a light pill with a dark rim, the menu bound to the icon", () => {
    const { icon, calls } = tray("linux");
    expect(icon.image).toMatchObject({ path: "/app/assets/tray.png", template: false });
    expect(tray("win32").icon.image).toMatchObject({ path: "/app/assets/tray.png", template: false });
    expect(icon.tooltip).toBe("svc");
    expect(icon.menu!.items.map((item) => item.label ?? item.type)).toEqual(MENU);
    for (const label of ["Open", "Settings", "Pause", "Quit"]) icon.choose(label);
    icon.emit("click");
    expect(calls).toEqual(["open", "settings", "paused true", "quit", "open"]);
  });

  it("shows the pause as a checkbox that unticks, and the shortcut beside Open", () => {
    const { shell, icon, calls } = tray();
    shell.update({ paused: true, shortcut: "Alt+Space" });
    expect(icon.menu!.items[3]).toMatchObject({ type: "checkbox", checked: true });
    expect(icon.menu!.items[0]).toMatchObject({ accelerator: "Alt+Space" });
    icon.choose("Pause");
    expect(calls).toEqual(["paused false"]);
    shell.destroy();
    expect(icon.destroyed).toBe(true);
  });

  it("builds the same menu as data", () => {
    const actions = { open() {}, settings() {}, setPaused() {}, quit() {} };
    expect(trayMenu(actions, { paused: false }).find((item) => item.type === "checkbox")).toMatchObject({
      label: "Pause updates",
      checked: false,
    });
  });
});

describe("the global shortcut", () => {
  it("binds, rebinds in place of the old one, and says why it cannot", () => {
    const globalShortcut = new FakeGlobalShortcut();
    const log: string[] = [];
    let presses = 0;
    const binding = new ShortcutBinding(
      globalShortcut,
      () => presses++,
      (m) => log.push(m),
    );
    expect(binding.bind("Control+Alt+Space")).toBe(true);
    globalShortcut.press("Control+Alt+Space");
    expect(presses).toBe(1);
    expect(binding.bind("Alt+Space")).toBe(true);
    expect([...globalShortcut.registered.keys()]).toEqual(["Alt+Space"]);
    globalShortcut.taken.add("Control+K");
    expect(binding.bind("Control+K")).toBe(false);
    expect(binding.current).toBeUndefined();
    expect(binding.bind("Shift+Banana")).toBe(false);
    expect(log).toEqual([
      'the shortcut Control+K is taken by another app; choose another "shortcut" in settings.json',
      'the shortcut "Shift+Banana" is not one Electron knows (Failed to parse accelerator Shift+Banana); write it like "Control+Alt+Space" in settings.json',
    ]);
    expect(binding.bind("Alt+Space")).toBe(true);
    binding.unbind();
    expect(globalShortcut.registered.size).toBe(0);
  });
});

/** The opaque pixels of an 8-bit RGBA PNG (no filters: how the assets are written), as [r, g, b]. */
function opaquePixels(file: string): number[][] {
  const png = readFileSync(new URL(`../assets/${file}`, import.meta.url));
  const width = png.readUInt32BE(16);
  let idat = Buffer.alloc(0);
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString("latin1", at + 4, at + 8) === "IDAT")
      idat = Buffer.concat([idat, png.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  const raw = inflateSync(idat);
  const stride = width * 4 + 1;
  const pixels: number[][] = [];
  for (let row = 0; row * stride < raw.length; row++) {
    expect(raw[row * stride]).toBe(0);
    for (let x = 0; x < width; x++) {
      const at = row * stride + 1 + x * 4;
      if (raw[at + 3] === 255) pixels.push([raw[at]!, raw[at + 1]!, raw[at + 2]!]);
    }
  }
  return pixels;
}

describe("the tray icons", () => {
  it("off macOS: a white pill ringed in near-black, seen on dark and on light panels (1x and 2x)", () => {
    for (const file of ["tray.png", "tray@2x.png"]) {
      const pixels = opaquePixels(file);
      const light = pixels.filter((p) => p.every((c) => c === 255)).length;
      const dark = pixels.filter((p) => p.every((c) => c === 26)).length;
      expect(light + dark).toBe(pixels.length);
      expect(light).toBeGreaterThan(0);
      expect(dark).toBeGreaterThan(0);
    }
  });
});
