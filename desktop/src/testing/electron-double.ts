/**
 * A stand-in for the main process's `electron` module (as the `menubar` package's own tests
 * use one): the same names and signatures the shell uses (`electron-api.ts`), recording what is
 * asked of it and letting a test play the system's part (plug a display, lock the screen, press
 * the shortcut, send IPC from some frame). No test needs the Electron binary.
 */
import { spawn } from "node:child_process";
import type {
  BrowserWindowOptions,
  Display,
  ElectronMain,
  IpcMainInvokeEvent,
  MenuItemOptions,
  NativeImage,
  PermissionCheckHandler,
  PermissionRequestHandler,
  Rectangle,
  WebFrameMain,
} from "../electron-api.js";

type Listener = (...args: any[]) => void;

export class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  removeListener(event: string, listener: Listener): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** An event with `preventDefault`, as Electron hands its listeners. */
export function cancellable<T extends object>(fields: T): T & { preventDefault(): void; defaultPrevented: boolean } {
  const event = { ...fields, defaultPrevented: false, preventDefault: () => void (event.defaultPrevented = true) };
  return event;
}

export class FakeFrame implements WebFrameMain {
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
  get origin(): string {
    try {
      return new URL(this.url).origin;
    } catch {
      return "null";
    }
  }
}

export class FakeSession extends Emitter {
  requestHandler: PermissionRequestHandler | null = null;
  checkHandler: PermissionCheckHandler | null = null;
  deviceHandler: ((details: unknown) => boolean) | null = null;
  displayMediaHandler: ((request: unknown, callback: (streams: null) => void) => void) | null = null;
  // Takes Electron's own handler type (the stand-in must take whatever the real one takes).
  setPermissionRequestHandler(handler: Parameters<Electron.Session["setPermissionRequestHandler"]>[0]) {
    this.requestHandler = handler as PermissionRequestHandler | null;
  }
  setPermissionCheckHandler(handler: Parameters<Electron.Session["setPermissionCheckHandler"]>[0]) {
    this.checkHandler = handler as PermissionCheckHandler | null;
  }
  setDevicePermissionHandler(handler: Parameters<Electron.Session["setDevicePermissionHandler"]>[0]) {
    this.deviceHandler = handler as ((details: unknown) => boolean) | null;
  }
  setDisplayMediaRequestHandler(
    handler: Parameters<Electron.Session["setDisplayMediaRequestHandler"]>[0],
    _options?: Electron.DisplayMediaRequestHandlerOpts,
  ) {
    this.displayMediaHandler = handler as unknown as
      ((request: unknown, callback: (streams: null) => void) => void) | null;
  }
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly mainFrame = new FakeFrame("about:blank");
  readonly sent: unknown[][] = [];
  openHandler: ((details: { url: string }) => { action: "deny" } | { action: "allow" }) | undefined;
  destroyed = false;
  constructor(readonly session: FakeSession) {
    super();
  }
  async loadURL(url: string, _options?: Electron.LoadURLOptions): Promise<void> {
    this.mainFrame.url = url;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }
  setWindowOpenHandler(handler: Parameters<Electron.WebContents["setWindowOpenHandler"]>[0]): void {
    this.openHandler = handler as unknown as FakeWebContents["openHandler"];
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** The page tries to go to `url` (a link, `location = …`); true when it was let through. */
  navigate(
    url: string,
    event: "will-navigate" | "will-frame-navigate" | "will-redirect" = "will-navigate",
    isMainFrame = true,
  ): boolean {
    const e = cancellable({ url, isMainFrame });
    this.emit(event, e, url);
    return !e.defaultPrevented;
  }
}

export class FakeBrowserWindow {
  static readonly all: FakeBrowserWindow[] = [];
  /** Set by `createElectronDouble`: where `web-contents-created` is emitted, as Electron does. */
  static app: Emitter | undefined;
  static session = new FakeSession();
  readonly webContents: FakeWebContents;
  bounds: Rectangle;
  alwaysOnTop: unknown[] = [];
  workspaces: unknown[] = [];
  /** Every `setIgnoreMouseEvents` call, in order. */
  ignoreMouse: unknown[][] = [];
  contentProtection: boolean | undefined;
  visible = false;
  focused = false;
  /** "showInactive" and "focus" calls, in order (a blip must never cause a "focus"). */
  calls: string[] = [];
  destroyed = false;
  private readonly emitter = new Emitter();

  constructor(readonly options: BrowserWindowOptions) {
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    // The class of this double's world (see createElectronDouble), not the base's.
    const world = this.constructor as typeof FakeBrowserWindow;
    this.webContents = new FakeWebContents(world.session);
    world.all.push(this);
    world.app?.emit("web-contents-created", cancellable({}), this.webContents);
  }
  setBounds(bounds: Partial<Rectangle>, _animate?: boolean) {
    this.bounds = { ...this.bounds, ...bounds };
  }
  getBounds(): Rectangle {
    return this.bounds;
  }
  setAlwaysOnTop(...args: unknown[]) {
    this.alwaysOnTop = args;
  }
  setVisibleOnAllWorkspaces(...args: unknown[]) {
    this.workspaces = args;
  }
  setIgnoreMouseEvents(...args: unknown[]) {
    this.ignoreMouse.push(args);
  }
  setContentProtection(enable: boolean) {
    this.contentProtection = enable;
  }
  showInactive() {
    this.visible = true;
    this.calls.push("showInactive");
  }
  focus() {
    this.focused = true;
    this.calls.push("focus");
  }
  blur() {
    this.focused = false;
  }
  isVisible() {
    return this.visible;
  }
  isFocused() {
    return this.focused;
  }
  isDestroyed() {
    return this.destroyed;
  }
  destroy() {
    this.destroyed = true;
    this.webContents.destroyed = true;
  }
  async loadURL(url: string, _options?: Electron.LoadURLOptions) {
    await this.webContents.loadURL(url);
  }
  on(event: string, listener: Listener) {
    this.emitter.on(event, listener);
    return this;
  }
  /** The last `setIgnoreMouseEvents` call. */
  get clickThrough(): unknown[] | undefined {
    return this.ignoreMouse.at(-1);
  }
}

export class FakeScreen extends Emitter {
  constructor(
    public displays: Display[],
    public primaryId: number,
  ) {
    super();
  }
  getAllDisplays(): Display[] {
    return this.displays;
  }
  getPrimaryDisplay(): Display {
    return this.displays.find((d) => d.id === this.primaryId) ?? this.displays[0]!;
  }
  /** Where the pointer is; a test moves it. */
  cursor = { x: 0, y: 0 };
  getCursorScreenPoint() {
    return { ...this.cursor };
  }
  getDisplayNearestPoint(point: { x: number; y: number }): Display {
    const inside = (d: Display) =>
      point.x >= d.bounds.x &&
      point.x < d.bounds.x + d.bounds.width &&
      point.y >= d.bounds.y &&
      point.y < d.bounds.y + d.bounds.height;
    return this.displays.find(inside) ?? this.getPrimaryDisplay();
  }
  plug(display: Display) {
    this.displays = [...this.displays, display];
    this.emit("display-added", cancellable({}), display);
  }
  unplug(id: number) {
    const gone = this.displays.find((d) => d.id === id);
    this.displays = this.displays.filter((d) => d.id !== id);
    if (this.primaryId === id) this.primaryId = this.displays[0]!.id;
    this.emit("display-removed", cancellable({}), gone);
  }
  change(display: Display, changed: string[] = ["workArea"]) {
    this.displays = this.displays.map((d) => (d.id === display.id ? display : d));
    this.emit("display-metrics-changed", cancellable({}), display, changed);
  }
}

export class FakePowerMonitor extends Emitter {
  idleState: "active" | "idle" | "locked" | "unknown" = "active";
  onBattery = false;
  isOnBatteryPower() {
    return this.onBattery;
  }
  getSystemIdleState(_threshold: number) {
    return this.idleState;
  }
}

export class FakeIpcMain {
  readonly handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: Parameters<Electron.IpcMain["handle"]>[1]) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener as (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  /** What `ipcRenderer.invoke` from `frame` of `sender` would get. */
  async invoke(
    channel: string,
    from: { sender: FakeWebContents; frame: FakeFrame | null },
    ...args: unknown[]
  ): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ sender: from.sender as never, senderFrame: from.frame }, ...args);
  }
}

export class FakeTray extends Emitter {
  static readonly all: FakeTray[] = [];
  tooltip = "";
  menu: { items: MenuItemOptions[] } | null = null;
  destroyed = false;
  constructor(readonly image: { path: string; template: boolean }) {
    super();
    (this.constructor as typeof FakeTray).all.push(this);
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: Electron.Menu | null) {
    this.menu = menu as unknown as { items: MenuItemOptions[] } | null;
  }
  /** Menus popped up by the app (`popUpContextMenu`), in order. */
  readonly poppedUp: { items: MenuItemOptions[] }[] = [];
  popUpContextMenu(menu?: Electron.Menu, _position?: Electron.Point) {
    const shown = (menu ?? this.menu) as unknown as { items: MenuItemOptions[] } | null;
    if (shown) this.poppedUp.push(shown);
  }
  destroy() {
    this.destroyed = true;
  }
  /** Clicks the menu item whose label starts with `label`, in the bound menu or else the last one popped up. */
  choose(label: string) {
    const menu = this.menu ?? this.poppedUp.at(-1);
    const item = menu?.items.find((i) => i.label?.startsWith(label));
    if (!item?.click) throw new Error(`no menu item ${label}; the menu: ${menu?.items.map((i) => i.label).join(", ")}`);
    item.click();
  }
}

/** Accelerators the double accepts: modifiers and one key, joined by "+" (Electron's grammar, simplified). */
const ACCELERATOR =
  /^((CommandOrControl|CmdOrCtrl|Command|Cmd|Control|Ctrl|Alt|Option|AltGr|Shift|Super|Meta)\+)+([A-Z0-9]|F[0-9]{1,2}|Space|Tab|Enter|Escape|Up|Down|Left|Right)$/;

export class FakeGlobalShortcut {
  /** Held by other apps: `register` answers false. */
  readonly taken = new Set<string>();
  readonly registered = new Map<string, () => void>();
  register(accelerator: string, callback: () => void): boolean {
    if (!ACCELERATOR.test(accelerator)) throw new Error(`Failed to parse accelerator ${accelerator}`);
    if (this.taken.has(accelerator)) return false;
    this.registered.set(accelerator, callback);
    return true;
  }
  unregister(accelerator: string) {
    this.registered.delete(accelerator);
  }
  press(accelerator: string) {
    const callback = this.registered.get(accelerator);
    if (!callback) throw new Error(`${accelerator} is not registered`);
    callback();
  }
}

/** Electron's single-instance lock lives in userData: one holder per folder, across doubles. */
const instanceLocks = new Map<string, FakeApp>();

export class FakeApp extends Emitter {
  readonly paths = new Map<string, string>();
  /** Chromium switches appended (`app.commandLine.appendSwitch`), as [name, value]. */
  readonly switches: [string, string | undefined][] = [];
  readonly commandLine = {
    appendSwitch: (name: string, value?: string) => void this.switches.push([name, value]),
  };
  loginItem = { openAtLogin: false };
  activationPolicy: string | undefined;
  quitCalls = 0;
  exitCode: number | undefined;
  setPath(name: string, path: string) {
    this.paths.set(name, path);
  }
  requestSingleInstanceLock(_additionalData?: Record<any, any>): boolean {
    const folder = this.paths.get("userData") ?? "default";
    const holder = instanceLocks.get(folder);
    if (holder && holder !== this) {
      holder.emit("second-instance", cancellable({}), [], folder, {});
      return false;
    }
    instanceLocks.set(folder, this);
    return true;
  }
  releaseSingleInstanceLock() {
    for (const [folder, holder] of instanceLocks) if (holder === this) instanceLocks.delete(folder);
  }
  async whenReady() {}
  quit() {
    this.quitCalls++;
    const event = cancellable({});
    this.emit("will-quit", event);
    if (!event.defaultPrevented) this.releaseSingleInstanceLock();
  }
  exit(code = 0) {
    this.exitCode = code;
    this.releaseSingleInstanceLock();
  }
  setLoginItemSettings(settings: Electron.Settings) {
    this.loginItem = { openAtLogin: settings.openAtLogin === true };
  }
  getLoginItemSettings(_options?: Electron.LoginItemSettingsOptions) {
    return this.loginItem;
  }
  setActivationPolicy(policy: string) {
    this.activationPolicy = policy;
  }
}

/**
 * `utilityProcess` as Electron runs it: the module in a child process of its own, the given
 * environment only (Electron adds no ELECTRON_RUN_AS_NODE), output piped. Each call is recorded.
 */
export class FakeUtilityProcess {
  readonly forks: { modulePath: string; args: string[]; options: Electron.ForkOptions | undefined }[] = [];
  fork(modulePath: string, args: string[] = [], options?: Electron.ForkOptions) {
    this.forks.push({ modulePath, args, options });
    return spawn(process.execPath, [modulePath, ...args], {
      env: (options?.env ?? process.env) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
  }
}

export interface ElectronDouble extends ElectronMain {
  utilityProcess: FakeUtilityProcess;
  app: FakeApp;
  BrowserWindow: typeof FakeBrowserWindow & ElectronMain["BrowserWindow"];
  screen: FakeScreen;
  powerMonitor: FakePowerMonitor;
  ipcMain: FakeIpcMain;
  Tray: typeof FakeTray & ElectronMain["Tray"];
  globalShortcut: FakeGlobalShortcut;
  shell: {
    opened: string[];
    openedPaths: string[];
    shownInFolder: string[];
    openExternal(url: string, options?: Electron.OpenExternalOptions): Promise<void>;
    openPath(path: string): Promise<string>;
    showItemInFolder(path: string): void;
  };
  clipboard: { text: string; readText(): Promise<string>; writeText(text: string): Promise<void> };
}

/**
 * @example
 * const electron = createElectronDouble([MACBOOK_NOTCHED]);
 * electron.powerMonitor.emit("lock-screen");
 */
export function createElectronDouble(displays: Display[], primaryId = displays[0]!.id): ElectronDouble {
  const app = new FakeApp();
  // Each double is its own world: its windows and trays, its session.
  class BrowserWindow extends FakeBrowserWindow {}
  Object.defineProperty(BrowserWindow, "all", { value: [] });
  BrowserWindow.app = app;
  BrowserWindow.session = new FakeSession();
  class Tray extends FakeTray {}
  Object.defineProperty(Tray, "all", { value: [] });
  const shell = {
    opened: [] as string[],
    openedPaths: [] as string[],
    shownInFolder: [] as string[],
    async openExternal(url: string, _options?: Electron.OpenExternalOptions) {
      shell.opened.push(url);
    },
    async openPath(path: string) {
      shell.openedPaths.push(path);
      return "";
    },
    showItemInFolder(path: string) {
      shell.shownInFolder.push(path);
    },
  };
  const clipboard = {
    text: "",
    // Promises, as Electron 45's are.
    readText: async () => clipboard.text,
    writeText: async (text: string) => void (clipboard.text = text),
  };
  return {
    app,
    BrowserWindow: BrowserWindow as never,
    screen: new FakeScreen(displays, primaryId),
    powerMonitor: new FakePowerMonitor(),
    ipcMain: new FakeIpcMain(),
    Tray: Tray as never,
    Menu: { buildFromTemplate: (items: MenuItemOptions[]) => ({ items }) as unknown as Electron.Menu },
    nativeImage: {
      createFromPath: (path: string) => {
        const image = {
          path,
          template: false,
          setTemplateImage: (on: boolean) => void (image.template = on),
          isEmpty: () => false,
        };
        return image as unknown as NativeImage;
      },
    },
    globalShortcut: new FakeGlobalShortcut(),
    shell,
    clipboard,
    utilityProcess: new FakeUtilityProcess(),
  };
}
