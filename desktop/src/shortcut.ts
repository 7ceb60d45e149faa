/** The global shortcut that opens the notch and focuses the first blip; rebound when the setting changes. */
import type { GlobalShortcut } from "./electron-api.js";
import { WAYLAND_SHORTCUT_ADVICE, type DisplaySession } from "./platform.js";

export class ShortcutBinding {
  private bound: string | undefined;

  constructor(
    private readonly globalShortcut: GlobalShortcut,
    private readonly onPress: () => void,
    private readonly log: (message: string) => void,
    /** On native Wayland a refused shortcut is the compositor's rule, not another app's. */
    private readonly session: DisplaySession = "native",
  ) {}

  /** The accelerator in use, if any. */
  get current(): string | undefined {
    return this.bound;
  }

  /** Binds `accelerator` in place of the previous one; false (and a log line saying why) when it cannot. */
  bind(accelerator: string): boolean {
    if (accelerator === this.bound) return true;
    this.unbind();
    let registered: boolean;
    try {
      registered = this.globalShortcut.register(accelerator, this.onPress);
    } catch (error) {
      this.log(
        `the shortcut ${JSON.stringify(accelerator)} is not one Electron knows (${(error as Error).message}); write it like "Control+Alt+Space" in settings.json`,
      );
      return false;
    }
    if (!registered) {
      this.log(
        this.session === "wayland"
          ? `the shortcut ${accelerator} is not bound: ${WAYLAND_SHORTCUT_ADVICE}`
          : `the shortcut ${accelerator} is taken by another app; choose another "shortcut" in settings.json`,
      );
      return false;
    }
    this.bound = accelerator;
    return true;
  }

  unbind(): void {
    if (this.bound !== undefined) this.globalShortcut.unregister(this.bound);
    this.bound = undefined;
  }
}
