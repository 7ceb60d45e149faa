/**
 * The part of Electron's API the shell uses, as plain types. The shell's modules take these as
 * parameters, so they are tested against a stand-in (`testing/electron-double.ts`). Names and
 * signatures follow Electron 45's `electron.d.ts`, and `npm run check` holds them to it:
 * `main.ts` hands the real module to `startDesktop` (so the real one must fit these), and
 * `testing/fits-electron.ts` checks that no promise Electron returns is typed here as a plain
 * value and that the stand-in fits the real signatures.
 */
import type { Menu as ElectronMenu, NativeImage as ElectronNativeImage } from "electron";

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Display {
  id: number;
  /** The whole display, in DIP points. */
  bounds: Rectangle;
  /** The display minus the menu bar, dock and task bars. */
  workArea: Rectangle;
  /** True for a built-in display (a laptop's own). */
  internal: boolean;
  label?: string;
}

export interface Listenable<Event extends string> {
  on(event: Event, listener: (...args: any[]) => void): unknown;
  removeListener(event: Event, listener: (...args: any[]) => void): unknown;
}

export type ScreenEvent = "display-added" | "display-removed" | "display-metrics-changed";

export interface Point {
  x: number;
  y: number;
}

export interface ElectronScreen extends Listenable<ScreenEvent> {
  getAllDisplays(): Display[];
  getPrimaryDisplay(): Display;
  /** The pointer's position (X11, macOS, Windows; not a native Wayland client). */
  getCursorScreenPoint(): Point;
  getDisplayNearestPoint(point: Point): Display;
}

export type PowerEvent =
  | "suspend"
  | "resume"
  | "lock-screen"
  | "unlock-screen"
  | "user-did-resign-active"
  | "user-did-become-active"
  | "on-battery"
  | "on-ac"
  | "shutdown";

export interface PowerMonitor extends Listenable<PowerEvent> {
  /** `locked` where the system tells (it also covers a running screen saver on macOS). */
  getSystemIdleState(idleThreshold: number): "active" | "idle" | "locked" | "unknown";
  /** Every platform; the `on-battery` event is macOS only and `on-ac` macOS and Windows, so the shell also asks. */
  isOnBatteryPower(): boolean;
}

export interface WebFrameMain {
  readonly url: string;
  readonly origin: string;
  readonly parent: WebFrameMain | null;
}

export interface IpcMainInvokeEvent {
  sender: WebContents;
  senderFrame: WebFrameMain | null;
}

export interface IpcMain {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type PermissionRequestHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: unknown,
) => void;
export type PermissionCheckHandler = (
  webContents: unknown,
  permission: string,
  requestingOrigin: string,
  details: unknown,
) => boolean;

export interface Session {
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void;
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void;
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void;
  setDisplayMediaRequestHandler(handler: ((request: unknown, callback: (streams: null) => void) => void) | null): void;
  on(event: "will-download", listener: (event: { preventDefault(): void }, item: unknown) => void): unknown;
}

/** What `will-navigate`, `will-frame-navigate` and `will-redirect` hand their listener first. */
export interface NavigationEvent {
  url: string;
  /** Set by `will-frame-navigate` (and `will-navigate`): false for a subframe. */
  isMainFrame?: boolean;
  preventDefault(): void;
}

export interface WebContents {
  readonly id: number;
  readonly session: Session;
  readonly mainFrame: WebFrameMain;
  on(
    event: "will-navigate" | "will-frame-navigate" | "will-redirect",
    listener: (event: NavigationEvent, url?: string) => void,
  ): unknown;
  on(event: "will-attach-webview", listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: "deny" } | { action: "allow" }): void;
  send(channel: string, ...args: unknown[]): void;
  loadURL(url: string): Promise<void>;
  isDestroyed(): boolean;
}

export interface WebPreferences {
  preload: string;
  contextIsolation: boolean;
  sandbox: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInWorker: boolean;
  nodeIntegrationInSubFrames: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
  webviewTag: boolean;
  experimentalFeatures: boolean;
  navigateOnDragDrop: boolean;
  safeDialogs: boolean;
  spellcheck: boolean;
  devTools: boolean;
}

export interface BrowserWindowOptions extends Partial<Rectangle> {
  show: boolean;
  frame: boolean;
  transparent: boolean;
  backgroundColor: string;
  hasShadow: boolean;
  resizable: boolean;
  movable: boolean;
  minimizable: boolean;
  maximizable: boolean;
  fullscreenable: boolean;
  skipTaskbar: boolean;
  alwaysOnTop: boolean;
  enableLargerThanScreen: boolean;
  roundedCorners: boolean;
  acceptFirstMouse: boolean;
  title: string;
  /** `panel` on macOS: a floating panel that can sit over fullscreen apps without activating. */
  type?: string;
  webPreferences: WebPreferences;
}

export type WindowLevel =
  | "normal"
  | "floating"
  | "torn-off-menu"
  | "modal-panel"
  | "main-menu"
  | "status"
  | "pop-up-menu"
  | "screen-saver"
  | "dock";

export interface BrowserWindow {
  readonly webContents: WebContents;
  setBounds(bounds: Partial<Rectangle>): void;
  getBounds(): Rectangle;
  setAlwaysOnTop(flag: boolean, level?: WindowLevel, relativeLevel?: number): void;
  setVisibleOnAllWorkspaces(
    visible: boolean,
    options?: { visibleOnFullScreen?: boolean; skipTransformProcessType?: boolean },
  ): void;
  setIgnoreMouseEvents(ignore: boolean, options?: { forward?: boolean }): void;
  setContentProtection(enable: boolean): void;
  showInactive(): void;
  focus(): void;
  blur(): void;
  isVisible(): boolean;
  isFocused(): boolean;
  isDestroyed(): boolean;
  destroy(): void;
  loadURL(url: string): Promise<void>;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

export type BrowserWindowConstructor = new (options: BrowserWindowOptions) => BrowserWindow;

export interface MenuItemOptions {
  label?: string;
  type?: "normal" | "separator" | "checkbox";
  checked?: boolean;
  enabled?: boolean;
  accelerator?: string;
  click?: () => void;
}

/** Electron's own menu type (the tray takes only what `Menu.buildFromTemplate` made). */
export type Menu = ElectronMenu;

export interface MenuStatic {
  buildFromTemplate(template: MenuItemOptions[]): Menu;
}

/**
 * Electron's own image type: the tray takes only what `nativeImage` made, so a narrower type here
 * could not be handed to the real `Tray` (the stand-in's image is cast to it).
 */
export type NativeImage = ElectronNativeImage;

export interface NativeImageStatic {
  createFromPath(path: string): NativeImage;
}

export interface Tray {
  setToolTip(text: string): void;
  setContextMenu(menu: Menu | null): void;
  /** darwin and win32: the shell calls it on macOS only. */
  popUpContextMenu(menu?: Menu): void;
  on(event: "click" | "right-click", listener: () => void): unknown;
  destroy(): void;
}

export type TrayConstructor = new (image: NativeImage) => Tray;

export interface GlobalShortcut {
  /** False when another app holds the shortcut; throws when the accelerator is not one. */
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface Shell {
  openExternal(url: string): Promise<void>;
  /** Resolves with an error message, or "" when it opened. */
  openPath(path: string): Promise<string>;
  /** Shows the file selected in the system's file manager (opens nothing). */
  showItemInFolder(path: string): void;
}

export interface Clipboard {
  /** A promise since Electron 45 (modelled on `navigator.clipboard`). */
  writeText(text: string): Promise<void>;
}

export type AppEvent =
  "second-instance" | "window-all-closed" | "before-quit" | "will-quit" | "web-contents-created" | "activate";

export interface CommandLine {
  /** Before `ready` only: a Chromium switch (the shell asks for `ozone-platform=x11` on Wayland). */
  appendSwitch(name: string, value?: string): void;
}

export interface App {
  readonly commandLine: CommandLine;
  whenReady(): Promise<void>;
  quit(): void;
  exit(code?: number): void;
  on(event: AppEvent, listener: (...args: any[]) => void): unknown;
  requestSingleInstanceLock(): boolean;
  setPath(name: "userData" | "sessionData", path: string): void;
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
  getLoginItemSettings(): { openAtLogin: boolean };
  /** macOS: an accessory app has no Dock icon and no menu of its own. */
  setActivationPolicy?(policy: "regular" | "accessory" | "prohibited"): void;
}

/** A Node module run in a child process of Electron's own (no `ELECTRON_RUN_AS_NODE`). */
export interface UtilityProcess {
  readonly pid?: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  kill(): boolean;
  once(event: "exit", listener: (code: number) => void): unknown;
}

export interface UtilityProcessStatic {
  fork(
    modulePath: string,
    args?: string[],
    options?: { env?: Record<string, string | undefined>; stdio?: "pipe"; serviceName?: string },
  ): UtilityProcess;
}

/** The main process's `electron` module, as far as the shell uses it. */
export interface ElectronMain {
  app: App;
  BrowserWindow: BrowserWindowConstructor;
  screen: ElectronScreen;
  powerMonitor: PowerMonitor;
  ipcMain: IpcMain;
  Tray: TrayConstructor;
  Menu: MenuStatic;
  nativeImage: NativeImageStatic;
  globalShortcut: GlobalShortcut;
  shell: Shell;
  clipboard: Clipboard;
  utilityProcess: UtilityProcessStatic;
}

/** The renderer side a sandboxed preload may `require("electron")` for. */
export interface ElectronPreload {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  };
  webUtils: { getPathForFile(file: unknown): string };
}
