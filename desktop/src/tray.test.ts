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
