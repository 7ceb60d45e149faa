/**
 * What Electron 45 can do on each platform, as its `electron.d.ts` and docs tag it, declared once
 * and read by the window, the tray and the shortcut (each point is tested on the stand-in with
 * the platform named).
 *
 * - `setIgnoreMouseEvents(…, {forward})` and `skipTaskbar`: `@platform darwin,win32`.
 * - `Tray.setContextMenu` on macOS opens the menu on the left click too (no `click` is emitted);
 *   `popUpContextMenu` is `@platform darwin,win32`. Linux trays (StatusNotifierItem) show a menu
 *   only through `setContextMenu`.
 * - A Wayland session (the default of current GNOME and KDE; Electron 38 and later follow it)
 *   lets no app place its window, keep it on top, show it without focus or hold a global
 *   shortcut. The shell asks for XWayland there (`--ozone-platform=x11`) unless the person sets
 *   {@link WAYLAND_OPT_IN}=1.
 */

/** Set to 1 to run natively on Wayland (no placement, no global shortcut). */
export const WAYLAND_OPT_IN = "SVC_DESKTOP_WAYLAND";

export interface PlatformTraits {
  /** The pointer's moves reach a click-through window (`forward: true`). */
  forwardsMouse: boolean;
  /** `skipTaskbar` keeps the window out of the task bar and the app switcher. */
  skipsTaskbar: boolean;
  /** A tray with a context menu still sends `click` for the left button (Windows; most Linux panels). */
  trayMenuKeepsLeftClick: boolean;
  /** The tray icon is a template image the system tints (macOS); elsewhere it must show on light and dark panels. */
  tintsTrayIcon: boolean;
}

export function platformTraits(platform: NodeJS.Platform): PlatformTraits {
  const mac = platform === "darwin";
  const macOrWindows = mac || platform === "win32";
  return { forwardsMouse: macOrWindows, skipsTaskbar: macOrWindows, trayMenuKeepsLeftClick: !mac, tintsTrayIcon: mac };
}

/** How the shell meets the display server: only Linux has a choice. */
export type DisplaySession = "native" | "xwayland" | "wayland";

/** `wayland` when the person asked for native Wayland, `xwayland` when the shell should ask for it. */
export function displaySession(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): DisplaySession {
  if (platform !== "linux") return "native";
  const onWayland = env.XDG_SESSION_TYPE === "wayland" || (env.WAYLAND_DISPLAY ?? "") !== "";
  if (!onWayland) return "native";
  return env[WAYLAND_OPT_IN] === "1" ? "wayland" : "xwayland";
}

/** What the person does on native Wayland instead of the shell's own shortcut. */
export const WAYLAND_SHORTCUT_ADVICE =
  "on Wayland no app can hold a global shortcut: bind a key to the command svc-desktop in your desktop's keyboard settings (a second start opens the notch), or unset SVC_DESKTOP_WAYLAND to run under XWayland";

/** The default shortcut: Command+Shift+Space on macOS; elsewhere Ctrl+Shift+Space is an editor's own key. */
export function defaultShortcut(platform: NodeJS.Platform): string {
  return platform === "darwin" ? "Command+Shift+Space" : "Control+Alt+Space";
}
