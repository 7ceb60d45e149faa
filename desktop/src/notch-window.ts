/**
 * The notch window (UI.md "Electron", window recipe): frameless, transparent, no shadow, fixed
 * in place, out of the task bar, above the menu bar (`main-menu` level + 2), on every workspace,
 * shown without taking focus, click-through while collapsed. It is laid out on the chosen
 * display (`placement.ts`) and again whenever displays are added, removed or changed.
 */
import { COMMAND_CHANNEL, type ShellCommand } from "./channels.js";
import type {
  BrowserWindow,
  BrowserWindowConstructor,
  BrowserWindowOptions,
  ElectronScreen,
  ScreenEvent,
} from "./electron-api.js";
import { chooseDisplay, layoutNotch, type NotchLayout } from "./placement.js";
import { platformTraits } from "./platform.js";
import { denyAllPermissions, originOf, webPreferences } from "./security.js";
import type { DesktopSettings } from "./settings.js";

/** Above the menu bar, as boring.notch sits. */
export const WINDOW_LEVEL = { level: "main-menu", relativeLevel: 2 } as const;

export interface NotchWindowOptions {
  BrowserWindow: BrowserWindowConstructor;
  screen: ElectronScreen;
  platform: NodeJS.Platform;
  preload: string;
  settings: DesktopSettings;
  devTools?: boolean;
  /** False on native Wayland, where no app is told where the pointer is. */
  pointerKnown?: boolean;
}

/** The constructor options: the recipe, on the first layout's bounds. */
export function windowOptions(
  layout: NotchLayout,
  preload: string,
  platform: NodeJS.Platform,
  devTools = false,
): BrowserWindowOptions {
  return {
    ...layout.window,
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
    // darwin and win32 only; a Linux window manager keeps a toolbar out of the task bar and Alt-Tab.
    skipTaskbar: true,
    alwaysOnTop: true,
    // macOS keeps ordinary windows below the menu bar; the notch sits over it.
    enableLargerThanScreen: true,
    roundedCorners: false,
    acceptFirstMouse: true,
    title: "svc",
    ...(platform === "darwin" ? { type: "panel" } : platformTraits(platform).skipsTaskbar ? {} : { type: "toolbar" }),
    webPreferences: webPreferences(preload, { devTools }),
  };
}

export class NotchWindow {
  readonly window: BrowserWindow;
  private settings: DesktopSettings;
  private current: NotchLayout;
  private origin: string | undefined;
  private isExpanded = false;
  private readonly stopWatching: () => void;
  /** Where a click-through window cannot see the pointer (Linux), the collapsed window is just the pill. */
  private readonly forwardsMouse: boolean;

  constructor(private readonly options: NotchWindowOptions) {
    this.settings = options.settings;
    this.forwardsMouse = platformTraits(options.platform).forwardsMouse;
    this.current = this.computeLayout();
    this.window = new options.BrowserWindow(
      windowOptions(this.current, options.preload, options.platform, options.devTools),
    );
    // Navigation and new windows are locked for every web contents (`desktop.ts`, on creation).
    denyAllPermissions(this.window.webContents.session);
    this.window.setAlwaysOnTop(true, WINDOW_LEVEL.level, WINDOW_LEVEL.relativeLevel);
    this.applySettings(options.settings);
    this.collapse();
    this.stopWatching = this.watchDisplays();
  }

  get layout(): NotchLayout {
    return this.current;
  }

  get expanded(): boolean {
    return this.isExpanded;
  }

  /** The UI's origin once a page is loaded: the only one IPC and navigation accept. */
  get uiOrigin(): string | undefined {
    return this.origin;
  }

  /** Loads the one-time UI address and shows the window without taking focus. */
  async load(url: string): Promise<void> {
    this.origin = originOf(url);
    await this.window.loadURL(url);
    this.window.showInactive();
  }

  applySettings(settings: DesktopSettings): void {
    this.settings = settings;
    this.window.setVisibleOnAllWorkspaces(true, {
      visibleOnFullScreen: !settings.hideInFullscreen,
      skipTransformProcessType: true,
    });
    this.window.setContentProtection(settings.excludeFromCapture);
    this.relayout();
  }

  /** Places the window again (the chosen display may have moved, changed or gone). */
  relayout(): void {
    if (this.window.isDestroyed()) return;
    this.current = this.computeLayout();
    this.window.setBounds(this.bounds());
  }

  /** The whole panel, or (collapsed, where the pointer is not forwarded) the pill alone, which then takes clicks. */
  private bounds() {
    const { window, pill } = this.current;
    if (this.isExpanded || this.forwardsMouse) return window;
    return { x: window.x + pill.x, y: window.y + pill.y, width: pill.width, height: pill.height };
  }

  /** The notch opens: the window takes the mouse; it never takes focus on its own. */
  expand(): void {
    this.isExpanded = true;
    this.window.setIgnoreMouseEvents(false);
    if (!this.forwardsMouse) this.window.setBounds(this.bounds());
  }

  /** The notch closes: clicks go through the transparent window again. */
  collapse(): void {
    this.isExpanded = false;
    if (this.forwardsMouse) return this.window.setIgnoreMouseEvents(true, { forward: true });
    // Linux: no forwarded moves, so a click-through pill could never be hovered; it takes clicks instead.
    this.window.setIgnoreMouseEvents(false);
    this.window.setBounds(this.bounds());
  }

  /** While collapsed, the page turns click-through off over the pill and on again when the pointer leaves. */
  setClickThrough(on: boolean): void {
    if (this.isExpanded || !this.forwardsMouse) return;
    this.window.setIgnoreMouseEvents(on, on ? { forward: true } : undefined);
  }

  /** The person asked (tray or shortcut): show, open, take focus, tell the page what to show. */
  open(command: ShellCommand): void {
    if (this.window.isDestroyed()) return;
    // "pointer": the notch opens on the display the person is working on.
    if (this.settings.display === "pointer") this.relayout();
    if (!this.window.isVisible()) this.window.showInactive();
    this.expand();
    this.window.focus();
    this.window.webContents.send(COMMAND_CHANNEL, command);
  }

  dispose(): void {
    this.stopWatching();
    if (!this.window.isDestroyed()) this.window.destroy();
  }

  private computeLayout(): NotchLayout {
    const { screen } = this.options;
    const underPointer =
      this.options.pointerKnown === false
        ? undefined
        : () => screen.getDisplayNearestPoint(screen.getCursorScreenPoint());
    const display = chooseDisplay(
      screen.getAllDisplays(),
      screen.getPrimaryDisplay(),
      this.settings.display,
      underPointer,
    );
    return layoutNotch(display, this.settings.style, this.options.platform);
  }

  private watchDisplays(): () => void {
    const events: ScreenEvent[] = ["display-added", "display-removed", "display-metrics-changed"];
    const relayout = () => this.relayout();
    for (const event of events) this.options.screen.on(event, relayout);
    return () => events.forEach((event) => this.options.screen.removeListener(event, relayout));
  }
}
