/** The menu-bar (tray) icon: a second way in. Open, Settings, Pause, Quit. */
import type { MenuItemOptions, MenuStatic, NativeImageStatic, TrayConstructor, Tray } from "./electron-api.js";

export interface TrayActions {
  open(): void;
  settings(): void;
  /** The person's own pause: held until they untick it, whatever the lock screen does. */
  setPaused(paused: boolean): void;
  quit(): void;
}

/** The menu, as data. */
export function trayMenu(actions: TrayActions, state: { paused: boolean; shortcut?: string }): MenuItemOptions[] {
  return [
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
  /** A template image (black and clear) so macOS tints it for light and dark menu bars. */
  iconPath: string;
  actions: TrayActions;
}

export class ShellTray {
  private readonly tray: Tray;
  private state: { paused: boolean; shortcut?: string } = { paused: false };

  constructor(private readonly options: ShellTrayOptions) {
    const image = options.nativeImage.createFromPath(options.iconPath);
    image.setTemplateImage(true);
    this.tray = new options.Tray(image);
    this.tray.setToolTip("svc");
    // A left click opens the notch where the platform sends one (the menu is on the right click).
    this.tray.on("click", () => options.actions.open());
    this.render();
  }

  update(state: Partial<{ paused: boolean; shortcut: string | undefined }>): void {
    this.state = { ...this.state, ...state };
    this.render();
  }

  destroy(): void {
    this.tray.destroy();
  }

  private render(): void {
    this.tray.setContextMenu(this.options.Menu.buildFromTemplate(trayMenu(this.options.actions, this.state)));
  }
}
