/**
 * The IPC vocabulary between the preload and the main process, defined once. Every channel is
 * `ipcRenderer.invoke` → `ipcMain.handle`, each handler checks its sender first (`ipc.ts`);
 * `COMMAND` is the only message the other way (main → page).
 */
export const CHANNELS = {
  /** The notch opens: the window takes the mouse (it does not take focus). */
  expand: "svc:expand",
  /** The notch closes: clicks pass through the transparent window again. */
  collapse: "svc:collapse",
  /** `(on: boolean)` while collapsed: off while the pointer is over the pill, on when it leaves. */
  clickThrough: "svc:click-through",
  /** `(text: string)` → puts text on the clipboard (at most {@link MAX_CLIPBOARD_CHARS}). */
  writeClipboard: "svc:clipboard-write",
  /**
   * `(path: string)` a file the person dropped or picked → the host's opaque handle for it (`POST /v1/given-files`).
   */
  registerDrop: "svc:register-drop",
  /**
   * `(path: string)` a file from a result block, from allowed places only: an inert document or
   * picture opens with the system's app, anything else is shown in its folder (`opening.ts`).
   */
  openFile: "svc:open-file",
} as const;

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** Main → page: what the tray or the shortcut asked for. */
export const COMMAND_CHANNEL = "svc:command";

/** `open`: show the blips and focus the first one; `settings`: show Settings. */
export const SHELL_COMMANDS = ["open", "settings"] as const;
export type ShellCommand = (typeof SHELL_COMMANDS)[number];

/** The longest text the page may put on the clipboard: 1 MB of characters. */
export const MAX_CLIPBOARD_CHARS = 1_048_576;

/** The longest path the page may hand over (Windows' long paths stay under this). */
export const MAX_PATH_CHARS = 32_767;

/** Where the preload puts its functions: `window.svcShell` (the name the UI looks for, ui/src/shell.ts). */
export const BRIDGE_KEY = "svcShell";
