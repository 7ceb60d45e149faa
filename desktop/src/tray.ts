/**
 * The menu-bar (tray) icon: a second way in. Open, Settings, Pause, Quit. On macOS a left click
 * opens the notch and the right click the menu (`setContextMenu` there would take the left click
 * too); elsewhere the menu is the tray's own (Linux panels show nothing else) and a left click,
 * where the panel sends one, opens the notch. See `platform.ts`.
 */
import type { MenuItemOptions, MenuStatic, NativeImageStatic, TrayConstructor, Tray } from "./electron-api.js";
import { platformTraits } from "./platform.js";

/** Said in the menu while on battery (the host's schedules are stretched). */
export const BATTERY_NOTE = "On battery: updates 3× less often";

export interface TrayActions {
  open(): void;
  settings(): void;
  /** The person's own pause: held until they untick it, whatever the lock screen does. */
  setPaused(paused: boolean): void;
  quit(): void;
}

/** The menu, as data. */
export function trayMenu(
  actions: TrayActions,
  state: { paused: boolean; shortcut?: string; onBattery?: boolean },
): MenuItemOptions[] {
  return [
    ...(state.onBattery ? [{ label: BATTERY_NOTE, enabled: false }, { type: "separator" as const }] : []),
    { label: "Open svc", ...(state.shortcut ? { accelerator: state.shortcut } : {}), click: () => actions.open() },
    { label: "Settings…", click: () => actions.settings() },
    { type: "separator" },
    { label: "Pause updates", type: "checkbox", checked: state.paused, click: () => actions.setPaused(!state.paused) },
    { type: "separator" },
    { label: "Quit svc", click: () => actions.quit() },
  ];
}

export interface ShellTrayOptions {
  Tray: TrayConstructor;
  Menu: MenuStatic;
  nativeImage: NativeImageStatic;
  /** {@link trayIconFile}'s: a template image on macOS, a light pill with a dark rim elsewhere. */
  iconPath: string;
  platform: NodeJS.Platform;
  actions: TrayActions;
}

/** macOS tints a black template image for its menu bar; Linux and Windows panels may be dark or light. */
export function trayIconFile(platform: NodeJS.Platform): string {
  return platformTraits(platform).tintsTrayIcon ? "trayTemplate.png" : "tray.png";
}

export class ShellTray {
  private readonly tray: Tray;
  /** macOS: the menu is popped up on the right click, never bound to the icon. */
  private readonly ownMenu: boolean;
  private state: { paused: boolean; shortcut?: string; onBattery?: boolean } = { paused: false };

  constructor(private readonly options: ShellTrayOptions) {
    const traits = platformTraits(options.platform);
    const image = options.nativeImage.createFromPath(options.iconPath);
    image.setTemplateImage(traits.tintsTrayIcon);
    this.tray = new options.Tray(image);
    this.tray.setToolTip("svc");
    this.ownMenu = !traits.trayMenuKeepsLeftClick;
    this.tray.on("click", () => options.actions.open());
    if (this.ownMenu) this.tray.on("right-click", () => this.tray.popUpContextMenu(this.menu()));
    this.render();
  }

  update(state: Partial<{ paused: boolean; shortcut: string | undefined; onBattery: boolean }>): void {
    this.state = { ...this.state, ...state };
    this.render();
  }

  destroy(): void {
    this.tray.destroy();
  }

  private menu() {
    return this.options.Menu.buildFromTemplate(trayMenu(this.options.actions, this.state));
  }

  private render(): void {
    // Linux panels show a changed menu only when it is set again.
    if (!this.ownMenu) this.tray.setContextMenu(this.menu());
  }
}
