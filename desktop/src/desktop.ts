/**
 * The shell assembled: one app per support folder, the host joined or started, the notch window
 * on the one-time UI address, the tray, the shortcut, sleep and lock, the preload's functions,
 * the settings file, start at login. Everything takes the `electron` module as a parameter
 * (`main.ts` passes the real one; tests a stand-in).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ElectronMain, WebContents } from "./electron-api.js";
import { Backoff } from "./backoff.js";
import { DroppedFiles } from "./dropped-files.js";
import { HostKeeper } from "./host-keeper.js";
import { forkInElectron, HostCallError, startOrJoinHost, type HostLink, type StartHostOptions } from "./host-link.js";
import { Refused, registerIpc } from "./ipc.js";
import { NotchWindow } from "./notch-window.js";
import { openFile, openPage } from "./opening.js";
import { PauseReasons, wirePower } from "./power.js";
import { lockContents } from "./security.js";
import { loadSettings, settingsFile, watchSettings, type DesktopSettings } from "./settings.js";
import { ShortcutBinding } from "./shortcut.js";
import { ShellTray, trayIconFile } from "./tray.js";
import { displaySession, WAYLAND_OPT_IN, WAYLAND_SHORTCUT_ADVICE } from "./platform.js";

export interface DesktopOptions {
  supportFolder: string;
  platform: NodeJS.Platform;
  /** The bundled preload (`dist/preload.cjs`). */
  preload: string;
  /** The folder of the tray's images (`tray.ts` picks one per platform). */
  assets: string;
  /** Default: this process's environment (the Wayland session is read from it). */
  env?: NodeJS.ProcessEnv;
  /** Default: {@link startOrJoinHost}. */
  connect?: (options: StartHostOptions) => Promise<HostLink>;
  /** Where the shell's own lines go. Default: stderr. */
  log?: (message: string) => void;
  devTools?: boolean;
  /** Default: the real clock and timer (tests pass their own to see the crash backoff). */
  now?: () => number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
}

export interface RunningDesktop {
  readonly notch: NotchWindow;
  readonly host: HostLink;
  readonly reasons: PauseReasons;
  readonly settings: DesktopSettings;
  readonly dropped: DroppedFiles;
  /** Applies settings as if the file had changed. */
  applySettings(settings: DesktopSettings): void;
  /** Releases everything and stops a host the shell started. */
  dispose(): Promise<void>;
}

/** Start at login: macOS and Windows login items; Electron has none on Linux. */
function applyLoginItem(
  electron: ElectronMain,
  platform: NodeJS.Platform,
  openAtLogin: boolean,
  log: (message: string) => void,
): void {
  if (platform !== "darwin" && platform !== "win32") {
    if (openAtLogin)
      log('"openAtLogin" works on macOS and Windows; on Linux add svc-desktop to your session\'s autostart');
    return;
  }
  if (electron.app.getLoginItemSettings().openAtLogin !== openAtLogin)
    electron.app.setLoginItemSettings({ openAtLogin });
}

/**
 * Starts the shell; resolves undefined when another instance already runs for this support
 * folder (that one is told to open, and this one quits).
 */
export async function startDesktop(
  electron: ElectronMain,
  options: DesktopOptions,
): Promise<RunningDesktop | undefined> {
  const { app } = electron;
  const log = options.log ?? ((message: string) => process.stderr.write(`svc-desktop: ${message}\n`));
  // One app per support folder: Electron's single-instance lock lives in userData.
  const userData = join(options.supportFolder, "Desktop");
  // Before ready: on Wayland, ask for XWayland, where the window can be placed and kept on top.
  const session = displaySession(options.platform, options.env ?? process.env);
  if (session === "xwayland") app.commandLine.appendSwitch("ozone-platform", "x11");
  app.setPath("userData", userData);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }

  let notch: NotchWindow | undefined;
  const openOutside = (url: string) =>
    void openPage(electron.shell, url).then((result) => {
      if (!result.ok) log(`not opening ${String(url).slice(0, 200)}: ${result.error}`);
    });
  // Every web contents, the notch's and any other, stays on the UI's origin.
  app.on("web-contents-created", (_event: unknown, contents: WebContents) =>
    lockContents(contents, { origin: () => notch?.uiOrigin, openOutside, log }),
  );
  app.on("second-instance", () => notch?.open("open"));
  // A menu-bar app: closing windows never quits it.
  app.on("window-all-closed", () => {});

  await app.whenReady();
  if (options.platform === "darwin") app.setActivationPolicy?.("accessory");
  await mkdir(userData, { recursive: true });

  const file = settingsFile(options.supportFolder);
  const loaded = await loadSettings(file, options.platform);
  if (session !== "native")
    log(
      session === "xwayland"
        ? "Wayland session: running under XWayland"
        : `native Wayland (${WAYLAND_OPT_IN}=1): the notch cannot be placed or kept on top, and ${WAYLAND_SHORTCUT_ADVICE}`,
    );
  loaded.problems.forEach(log);
  let settings = loaded.settings;

  // Set once the window is up; a host restarted before that has nothing to reload.
  let reload: ((reason: string) => Promise<void>) | undefined;
  const keeper = new HostKeeper({
    connect: options.connect ?? startOrJoinHost,
    // An extension's ctx.openURL reaches the page, which asks the person first; its "Open" link
    // comes back through the window-open gate above (http and https only), never on its own.
    connectOptions: {
      supportFolder: options.supportFolder,
      // Electron's utility process: no ELECTRON_RUN_AS_NODE, which a packaged app's fuses forbid.
      fork: forkInElectron(electron.utilityProcess),
      onStderr: (line) => log(`svc-host: ${line}`),
    },
    onRestarted: () => reload?.("svc-host started again"),
    log,
  });
  await keeper.start();

  // Whatever is set up from here is undone in reverse, at quit or when the start fails.
  const undo: (() => void | Promise<void>)[] = [() => keeper.stop()];
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch (error) {
          log(`while stopping: ${(error as Error)?.message ?? String(error)}`);
        }
      }
    })());

  try {
    // The client reads webhook.json on every call, so it reaches whichever host runs now.
    const reasons = new PauseReasons(keeper.link.client, log);
    const notchWindow = new NotchWindow({
      BrowserWindow: electron.BrowserWindow,
      screen: electron.screen,
      platform: options.platform,
      preload: options.preload,
      settings,
      devTools: options.devTools === true,
      pointerKnown: session !== "wayland",
    });
    notch = notchWindow;
    undo.push(() => notchWindow.dispose());
    // Display ids are what the "display" setting takes: say which there are.
    const primaryId = electron.screen.getPrimaryDisplay().id;
    const named = electron.screen
      .getAllDisplays()
      .map((d) => `${d.id} ${d.label ?? ""}${d.id === primaryId ? " (primary)" : ""}`.replace(/\s+/g, " ").trim());
    log(
      `notch on display ${notchWindow.layout.displayId} in ${notchWindow.layout.style} style; displays: ${named.join(", ")}`,
    );
    const dropped = new DroppedFiles();
    undo.push(
      registerIpc(electron.ipcMain, {
        contents: () => (notchWindow.window.isDestroyed() ? undefined : notchWindow.window.webContents),
        origin: () => notchWindow.uiOrigin,
        expand: () => notchWindow.expand(),
        collapse: () => notchWindow.collapse(),
        setClickThrough: (on) => notchWindow.setClickThrough(on),
        writeClipboard: (text) => electron.clipboard.writeText(text),
        registerDrop: async (path) => {
          let handle: string;
          try {
            handle = await keeper.link.client.giveFile(path);
          } catch (error) {
            // The host's reason (a folder, a file that is gone) is for the person; anything else goes to the log.
            if (error instanceof HostCallError && error.status === 400 && error.said) throw new Refused(error.said);
            throw error;
          }
          dropped.remember(path);
          return handle;
        },
        openFile: async (path) => {
          const result = await openFile(electron.shell, path, {
            folders: [join(options.supportFolder, "Data")],
            files: dropped.paths(),
          });
          return result.ok ? undefined : result.error;
        },
        log,
      }),
    );

    const shortcut = new ShortcutBinding(electron.globalShortcut, () => notchWindow.open("open"), log, session);
    undo.push(() => shortcut.unbind());
    const tray = new ShellTray({
      Tray: electron.Tray,
      Menu: electron.Menu,
      nativeImage: electron.nativeImage,
      iconPath: join(options.assets, trayIconFile(options.platform)),
      platform: options.platform,
      actions: {
        open: () => notchWindow.open("open"),
        settings: () => notchWindow.open("settings"),
        setPaused: (paused) => reasons.set("menu", paused),
        quit: () => app.quit(),
      },
    });
    undo.push(() => tray.destroy());
    undo.push(reasons.onChange((paused) => tray.update({ paused })));
    // On battery the host stretches its schedules; the menu says so. Told again to a new host.
    let onBattery = false;
    const tellBattery = (on: boolean) =>
      keeper.link.client
        .setOnBattery(on)
        .catch((error: unknown) =>
          log(`could not tell svc about the power source: ${(error as Error)?.message ?? String(error)}`),
        );
    undo.push(
      wirePower({
        powerMonitor: electron.powerMonitor,
        reasons,
        onBattery: (on) => {
          onBattery = on;
          log(on ? "on battery: updates 3× less often" : "on mains power: updates as usual");
          tray.update({ onBattery: on });
          void tellBattery(on);
        },
      }),
    );

    const applySettings = (next: DesktopSettings) => {
      settings = next;
      notchWindow.applySettings(next);
      shortcut.bind(next.shortcut);
      tray.update({ shortcut: shortcut.current });
      applyLoginItem(electron, options.platform, next.openAtLogin, log);
    };
    applySettings(settings);
    undo.push(
      watchSettings(
        file,
        (changed) => {
          changed.problems.forEach(log);
          applySettings(changed.settings);
        },
        options.platform,
      ),
    );

    await notchWindow.load(await keeper.link.client.uiUrl());
    // A new host (or a crashed page) needs a fresh ticket; a pause in force is told again.
    reload = async (reason) => {
      log(`${reason}; loading the notch again`);
      try {
        if (reasons.paused) await keeper.link.client.pause();
        if (onBattery) await tellBattery(true);
        await notchWindow.load(await keeper.link.client.uiUrl());
      } catch (error) {
        log(`could not load the notch again: ${(error as Error)?.message ?? String(error)}`);
      }
    };
    // A page that crashes again and again is loaded again after 1 s, 2 s, 4 s … (at most 30 s).
    const pageBackoff = new Backoff(options.now);
    const later = options.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
    let pending: unknown;
    undo.push(() => clearTimeout(pending as NodeJS.Timeout));
    notchWindow.window.webContents.on("render-process-gone", (_event: unknown, details: { reason?: string }) => {
      const wait = pageBackoff.next();
      const why = `the notch page stopped (${details?.reason ?? "unknown"})`;
      log(`${why}; loading it again in ${wait / 1000} s`);
      pending = later(() => void reload?.(why), wait);
    });

    // Quitting waits for a host the shell started to stop (its blips are saved on the way out).
    let cleaned = false;
    app.on("will-quit", (event: { preventDefault(): void }) => {
      if (cleaned) return;
      event.preventDefault();
      void dispose().finally(() => {
        cleaned = true;
        app.quit();
      });
    });

    return {
      notch: notchWindow,
      get host() {
        return keeper.link;
      },
      reasons,
      get settings() {
        return settings;
      },
      dropped,
      applySettings,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
