import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHANNELS, COMMAND_CHANNEL } from "./channels.js";
import { startDesktop, type RunningDesktop } from "./desktop.js";
import { HostCallError, type HostLink, type StartHostOptions } from "./host-link.js";
import { OPENABLE_EXTENSIONS } from "./opening.js";
import { EXTERNAL_4K, MACBOOK_NOTCHED } from "./testing/displays.js";
import {
  createElectronDouble,
  type ElectronDouble,
  type FakeBrowserWindow,
  type FakeTray,
} from "./testing/electron-double.js";

const TICKET_URL = "http://127.0.0.1:47900/#t=one-time";

/** The host side, recorded: the real /v1 client is tested against the real host in test/desktop. */
function hostDouble(options: { uiUrl?: () => Promise<string> } = {}) {
  const calls: string[] = [];
  let given: StartHostOptions | undefined;
  const link: HostLink = {
    client: {
      pause: async () => void calls.push("pause"),
      resume: async () => void calls.push("resume"),
      setOnBattery: async (on: boolean) => void calls.push(on ? "on-battery" : "on-power"),
      uiUrl: options.uiUrl ?? (async () => TICKET_URL),
      // As the host's POST /v1/given-files answers: a handle, or 400 with its reason.
      giveFile: async (path: string) => {
        calls.push(`give ${path}`);
        if (path.endsWith("folder"))
          throw new HostCallError(
            `POST /v1/given-files answered 400: "path": ${path} is not a file`,
            400,
            `"path": ${path} is not a file`,
          );
        if (path.endsWith("boom")) throw new HostCallError("svc did not answer on port 9: fetch failed");
        return `handle-${calls.length}`.padEnd(24, "x");
      },
    } as never,
    joined: false,
    child: undefined,
    stop: async () => void calls.push("stop"),
  };
  return { calls, link, connect: async (o: StartHostOptions) => ((given = o), link), given: () => given! };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the desktop shell, wired", () => {
  let support: string;
  let electron: ElectronDouble;
  let running: RunningDesktop | undefined;
  let log: string[];
  beforeEach(async () => {
    support = await mkdtemp(join(tmpdir(), "svc-desktop-"));
    electron = createElectronDouble([MACBOOK_NOTCHED, EXTERNAL_4K]);
    log = [];
  });
  afterEach(async () => {
    await running?.dispose();
    running = undefined;
    electron.app.releaseSingleInstanceLock();
    await rm(support, { recursive: true, force: true });
  });

  async function start(
    host = hostDouble(),
    platform: NodeJS.Platform = "darwin",
    env: NodeJS.ProcessEnv = {},
    timers: { now?: () => number; setTimeout?: (callback: () => void, ms: number) => unknown } = {},
  ) {
    running = await startDesktop(electron, {
      supportFolder: support,
      platform,
      preload: "/app/dist/preload.cjs",
      assets: "/app/assets",
      env: { XDG_SESSION_TYPE: "x11", ...env },
      connect: host.connect,
      log: (m) => log.push(m),
      ...timers,
    });
    const win = (electron.BrowserWindow as unknown as { all: FakeBrowserWindow[] }).all[0]!;
    const tray = (electron.Tray as unknown as { all: FakeTray[] }).all[0]!;
    return { host, win, tray, running: running! };
  }

  it("keeps one app per support folder and loads the one-time UI address without taking focus", async () => {
    const { win, host } = await start();
    expect(electron.app.paths.get("userData")).toBe(join(support, "Desktop"));
    expect(host.given().supportFolder).toBe(support);
    expect(win.webContents.mainFrame.url).toBe(TICKET_URL);
    expect(win.calls).toEqual(["showInactive"]);
    expect(electron.app.activationPolicy).toBe("accessory");
    expect([...electron.globalShortcut.registered.keys()]).toEqual(["Command+Shift+Space"]);
    expect(electron.ipcMain.handlers.size).toBe(Object.keys(CHANNELS).length);
    expect(electron.app.listenerCount("window-all-closed")).toBe(1); // closing windows never quits a menu-bar app
    expect(log).toContain(
      "notch on display 1 in notch style; displays: 1 Built-in Retina Display (primary), 2 LG UltraFine",
    );
  });

  it("hands a second start for the same folder to the first, which opens", async () => {
    const { win } = await start();
    const second = createElectronDouble([MACBOOK_NOTCHED]);
    const again = await startDesktop(second, {
      supportFolder: support,
      platform: "darwin",
      preload: "/p",
      assets: "/t",
      connect: hostDouble().connect,
      log: () => {},
    });
    expect(again).toBeUndefined();
    expect(second.app.quitCalls).toBe(1);
    expect(win.calls).toEqual(["showInactive", "focus"]);
    expect(win.webContents.sent).toEqual([[COMMAND_CHANNEL, "open"]]);
  });

  it("opens from the shortcut and the tray, focusing the first blip or Settings", async () => {
    const { win, tray } = await start();
    electron.globalShortcut.press("Command+Shift+Space");
    tray.emit("right-click");
    tray.choose("Settings");
    tray.emit("click");
    expect(win.webContents.sent).toEqual([
      [COMMAND_CHANNEL, "open"],
      [COMMAND_CHANNEL, "settings"],
      [COMMAND_CHANNEL, "open"],
    ]);
    expect(win.clickThrough).toEqual([false]);
  });

  it("pauses the host while locked or asleep and when the person pauses, and says so in the tray", async () => {
    const { host, tray } = await start();
    electron.powerMonitor.emit("lock-screen");
    await settle();
    expect(host.calls).toEqual(["pause"]);
    tray.emit("right-click"); // macOS: the menu is popped up, never bound to the icon
    expect(tray.menu).toBeNull();
    expect(tray.poppedUp.at(-1)!.items[3]).toMatchObject({ checked: true });
    electron.powerMonitor.emit("unlock-screen");
    await settle();
    expect(host.calls).toEqual(["pause", "resume"]);
    tray.emit("right-click");
    tray.choose("Pause");
    electron.powerMonitor.emit("suspend");
    electron.powerMonitor.emit("resume");
    await settle();
    expect(host.calls).toEqual(["pause", "resume", "pause"]);
    tray.emit("right-click");
    tray.choose("Pause");
    await settle();
    expect(host.calls).toEqual(["pause", "resume", "pause", "resume"]);
  });

  it("tells the host to stretch its schedules on battery, says so in the menu, and goes back on mains power", async () => {
    electron.powerMonitor.onBattery = true;
    const { host, tray } = await start(hostDouble(), "linux");
    await settle();
    expect(host.calls).toEqual(["on-battery"]);
    expect(tray.menu!.items[0]).toEqual({ label: "On battery: updates 3× less often", enabled: false });
    expect(log).toContain("on battery: updates 3× less often");
    // macOS and Windows send on-ac; Linux none, where the 15 s poll sees it (power.test.ts).
    electron.powerMonitor.onBattery = false;
    electron.powerMonitor.emit("on-ac");
    await settle();
    expect(host.calls).toEqual(["on-battery", "on-power"]);
    expect(tray.menu!.items[0]).toMatchObject({ label: "Open svc" });
    electron.powerMonitor.emit("on-ac"); // no change, nothing said
    await settle();
    expect(host.calls).toEqual(["on-battery", "on-power"]);
  });

  it("follows the display it was given through unplugging and plugging", async () => {
    await mkdir(join(support, "Desktop"), { recursive: true });
    await writeFile(join(support, "Desktop", "settings.json"), JSON.stringify({ display: 2 }));
    const { win, running } = await start();
    expect(running.notch.layout).toMatchObject({ displayId: 2, style: "floating" });
    electron.screen.unplug(2);
    expect(running.notch.layout).toMatchObject({ displayId: 1, style: "notch" });
    expect(win.bounds.y).toBe(0);
  });

  it("applies a changed settings file: shortcut, capture, fullscreen, login item", async () => {
    const { win, running } = await start();
    await writeFile(
      join(support, "Desktop", "settings.json"),
      JSON.stringify({
        shortcut: "Alt+Space",
        excludeFromCapture: true,
        hideInFullscreen: false,
        openAtLogin: true,
        style: "bubbly",
      }),
    );
    await new Promise<void>((resolve) => {
      const timer = setInterval(
        () => running.settings.shortcut === "Alt+Space" && (clearInterval(timer), resolve()),
        20,
      );
    });
    expect([...electron.globalShortcut.registered.keys()]).toEqual(["Alt+Space"]);
    expect(win.contentProtection).toBe(true);
    expect(win.workspaces).toEqual([true, { visibleOnFullScreen: true, skipTransformProcessType: true }]);
    expect(electron.app.loginItem).toEqual({ openAtLogin: true });
    expect(log).toContain(
      `${join(support, "Desktop", "settings.json")}: "style" should be "auto", "notch" or "floating"; using "auto"`,
    );
  });

  it("says start at login is not Electron's to do on Linux", async () => {
    await mkdir(join(support, "Desktop"), { recursive: true });
    await writeFile(join(support, "Desktop", "settings.json"), JSON.stringify({ openAtLogin: true }));
    await start(hostDouble(), "linux");
    expect(electron.app.loginItem).toEqual({ openAtLogin: false });
    expect(log).toContain(
      '"openAtLogin" works on macOS and Windows; on Linux add svc-desktop to your session\'s autostart',
    );
  });

  it("opens an extension's page when the person follows the page's link, http and https only, never on its own", async () => {
    const { win, host } = await start();
    expect(host.given().onEvent).toBeUndefined(); // the host's openURL events are the page's to show
    expect(win.webContents.openHandler!({ url: "https://ci.example.com/run/42" })).toEqual({ action: "deny" });
    expect(win.webContents.openHandler!({ url: "file:///etc/passwd" })).toEqual({ action: "deny" });
    await settle();
    expect(electron.shell.opened).toEqual(["https://ci.example.com/run/42"]);
    expect(log).toContain("not opening file:///etc/passwd: only http and https pages are opened, not file:");
  });

  it("locks every web contents to the UI's origin, not only the notch's", async () => {
    const { win } = await start();
    expect(win.webContents.navigate("https://example.com/")).toBe(false);
    expect(win.webContents.navigate("http://127.0.0.1:47900/settings")).toBe(true);
    const other = new electron.BrowserWindow({} as never) as unknown as FakeBrowserWindow;
    expect(other.webContents.navigate("https://example.com/")).toBe(false);
    expect(other.webContents.openHandler!({ url: "https://example.com/" })).toEqual({ action: "deny" });
    await settle();
    expect(electron.shell.opened).toEqual(["https://example.com/", "https://example.com/", "https://example.com/"]);
    // Every permission of the window's session is denied.
    const granted: boolean[] = [];
    win.webContents.session.requestHandler!(null, "media", (g) => granted.push(g), {});
    expect(granted).toEqual([false]);
  });

  it("registers a dropped file with the host and hands the page the host's handle, never the path", async () => {
    const { win, host } = await start();
    const page = { sender: win.webContents, frame: win.webContents.mainFrame };
    expect(await electron.ipcMain.invoke(CHANNELS.registerDrop, page, "/Users/ann/deploys-1.2.0.svc")).toBe(
      "handle-1".padEnd(24, "x"),
    );
    expect(host.calls).toEqual(["give /Users/ann/deploys-1.2.0.svc"]);
    expect([...running!.dropped.paths()]).toEqual(["/Users/ann/deploys-1.2.0.svc"]);
    // The host's refusal reaches the page in its own words; a broken link only says where to look.
    await expect(electron.ipcMain.invoke(CHANNELS.registerDrop, page, "/Users/ann/folder")).rejects.toThrow(
      /^"path": \/Users\/ann\/folder is not a file$/,
    );
    await expect(electron.ipcMain.invoke(CHANNELS.registerDrop, page, "/Users/ann/boom")).rejects.toThrow(
      `${CHANNELS.registerDrop} failed; details are in the svc log`,
    );
    expect(log).toContain(`${CHANNELS.registerDrop} failed: svc did not answer on port 9: fetch failed`);
    expect([...running!.dropped.paths()]).toEqual(["/Users/ann/deploys-1.2.0.svc"]);
    // Another window's page never reaches the host.
    const other = new electron.BrowserWindow({} as never) as unknown as FakeBrowserWindow;
    const stranger = { sender: other.webContents, frame: other.webContents.mainFrame };
    await expect(electron.ipcMain.invoke(CHANNELS.registerDrop, stranger, "/etc/passwd")).rejects.toThrow(
      "refused: not the notch window",
    );
    expect(host.calls).toHaveLength(3);
  });

  it("opens files from the data folder and dropped files, from the notch page only", async () => {
    const { win } = await start();
    await mkdir(join(support, "Data", "com.example.png"), { recursive: true });
    await writeFile(join(support, "Data", "com.example.png", "out.png"), "png");
    await writeFile(join(support, "elsewhere.txt"), "x");
    const page = { sender: win.webContents, frame: win.webContents.mainFrame };
    await electron.ipcMain.invoke(CHANNELS.openFile, page, join(support, "Data", "com.example.png", "out.png"));
    await expect(electron.ipcMain.invoke(CHANNELS.openFile, page, join(support, "elsewhere.txt"))).rejects.toThrow(
      "is not in an extension's data folder or among the files you gave",
    );
    await electron.ipcMain.invoke(CHANNELS.registerDrop, page, join(support, "elsewhere.txt"));
    await electron.ipcMain.invoke(CHANNELS.openFile, page, join(support, "elsewhere.txt"));
    expect(electron.shell.openedPaths).toEqual([
      join(support, "Data", "com.example.png", "out.png"),
      join(support, "elsewhere.txt"),
    ]);
    // A page an extension wrote is not opened (a browser would run its scripts): shown in its folder.
    const html = join(support, "Data", "com.example.png", "report.html");
    await writeFile(html, "<script>…</script>");
    await expect(electron.ipcMain.invoke(CHANNELS.openFile, page, html)).rejects.toThrow(
      `${html} is not opened: svc opens only documents, pictures and sound (${[...OPENABLE_EXTENSIONS].join(" ")}), not .html. It is shown in its folder instead.`,
    );
    expect(electron.shell.openedPaths).toHaveLength(2);
    expect(electron.shell.shownInFolder).toEqual([html]);
  });

  it("loads the notch again with a fresh ticket when the host it started comes back, telling it a pause in force", async () => {
    let tickets = 0;
    const host = hostDouble({ uiUrl: async () => `http://127.0.0.1:${47900 + tickets}/#t=ticket-${++tickets}` });
    const { win } = await start(host);
    electron.powerMonitor.emit("lock-screen");
    host.given().onExit!(null, "SIGKILL");
    await until(() => win.webContents.mainFrame.url.endsWith("#t=ticket-2"), "the second ticket");
    expect(win.webContents.mainFrame.url).toBe("http://127.0.0.1:47901/#t=ticket-2");
    expect(running!.notch.uiOrigin).toBe("http://127.0.0.1:47901");
    expect(host.calls).toEqual(["pause", "pause"]);
    expect(log).toContain("svc-host stopped on its own (SIGKILL); starting it again in 1 s");
    expect(log).toContain("svc-host started again; loading the notch again");
  });

  it("loads the page again when its renderer is gone, after 1 s, 2 s, 4 s … at most 30 s, back to 1 s once calm", async () => {
    let tickets = 0;
    let clock = 0;
    const waits: number[] = [];
    const due: (() => void)[] = [];
    const { win } = await start(
      hostDouble({ uiUrl: async () => `http://127.0.0.1:47900/#t=ticket-${++tickets}` }),
      "darwin",
      {},
      { now: () => clock, setTimeout: (callback, ms) => (waits.push(ms), due.push(callback)) },
    );
    const crash = async () => {
      win.webContents.emit("render-process-gone", {}, { reason: "crashed" });
      expect(win.webContents.mainFrame.url.endsWith(`#t=ticket-${tickets}`)).toBe(true); // not at once
      const next = `#t=ticket-${tickets + 1}`;
      clock += waits.at(-1)!;
      due.shift()!();
      await until(() => win.webContents.mainFrame.url.endsWith(next), next);
    };
    for (let i = 0; i < 7; i++) await crash();
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(log).toContain("the notch page stopped (crashed); loading it again in 30 s");
    expect(log).toContain("the notch page stopped (crashed); loading the notch again");
    await until(() => tickets === 8, "the eighth ticket");
    clock += 60_000 + 30_000; // up a minute since the last crash: the next one waits 1 s again
    await crash();
    expect(waits.at(-1)).toBe(1_000);
  });

  it("runs under XWayland on a Wayland session unless the person opts out, and then says where to bind the shortcut", async () => {
    await start(hostDouble(), "linux", { XDG_SESSION_TYPE: "wayland" });
    expect(electron.app.switches).toEqual([["ozone-platform", "x11"]]);
    expect(log).toContain("Wayland session: running under XWayland");
    await running!.dispose();
    electron.app.releaseSingleInstanceLock();

    electron = createElectronDouble([EXTERNAL_4K]);
    // The compositor refuses every global shortcut to a native Wayland client.
    electron.globalShortcut.taken.add("Control+Alt+Space");
    await start(hostDouble(), "linux", { WAYLAND_DISPLAY: "wayland-0", SVC_DESKTOP_WAYLAND: "1" });
    expect(electron.app.switches).toEqual([]);
    expect(log).toContain(
      "the shortcut Control+Alt+Space is not bound: on Wayland no app can hold a global shortcut: bind a key to the command svc-desktop in your desktop's keyboard settings (a second start opens the notch), or unset SVC_DESKTOP_WAYLAND to run under XWayland",
    );
  });

  it("on Linux: Control+Alt+Space, the menu bound to the icon, a light icon with a dark rim, out of the task bar", async () => {
    const { win, tray } = await start(hostDouble(), "linux");
    expect(electron.app.switches).toEqual([]);
    expect([...electron.globalShortcut.registered.keys()]).toEqual(["Control+Alt+Space"]);
    expect(tray.image).toEqual(expect.objectContaining({ path: "/app/assets/tray.png", template: false }));
    expect(tray.menu!.items.map((item) => item.label ?? item.type)[0]).toBe("Open svc");
    expect(win.options).toMatchObject({ type: "toolbar" });
  });

  it("waits at quit for the host it started to stop, then quits", async () => {
    const { host, win, tray } = await start();
    tray.emit("right-click");
    tray.choose("Quit");
    expect(electron.app.quitCalls).toBe(1);
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => electron.app.quitCalls === 2 && (clearInterval(timer), resolve()), 5);
    });
    expect(host.calls).toEqual(["stop"]);
    expect(win.destroyed).toBe(true);
    expect(tray.destroyed).toBe(true);
    expect(electron.ipcMain.handlers.size).toBe(0);
    expect(electron.globalShortcut.registered.size).toBe(0);
    expect(electron.powerMonitor.listenerCount("lock-screen")).toBe(0);
    running = undefined;
  });

  it("undoes what it set up, host included, when the UI cannot be loaded", async () => {
    const host = hostDouble({
      uiUrl: async () =>
        Promise.reject(new Error("this svc-host has no UI server (POST /v1/ui/tickets is missing): update svc")),
    });
    await expect(start(host)).rejects.toThrow("this svc-host has no UI server");
    expect(host.calls).toEqual(["stop"]);
    const win = (electron.BrowserWindow as unknown as { all: FakeBrowserWindow[] }).all[0]!;
    expect(win.destroyed).toBe(true);
    expect(electron.ipcMain.handlers.size).toBe(0);
    expect(electron.globalShortcut.registered.size).toBe(0);
  });
});
