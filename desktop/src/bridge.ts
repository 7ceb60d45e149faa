/**
 * What the preload puts on `window.svcShell` (and nothing else): the page's few ways into the
 * shell. Every function sends one IPC message the main process checks (`ipc.ts`); no Electron
 * or Node object ever reaches the page. The UI uses them when present and works without them
 * in a plain browser. Only what the page calls is here (a member it never calls would be a
 * power for nothing, reachable by any script that runs in the page).
 *
 * | function | does |
 * |---|---|
 * | `registerDroppedFile(file)` | a dropped or picked `File` → `{handle}`: the main process registers its path with the host, the page gets the host's handle |
 * | `setExpanded(expanded)` | the notch opened (takes the mouse, not the focus) / closed (click-through) |
 * | `setClickThrough(through)` | while collapsed: off while the pointer is over the pill |
 * | `copyText(text)` | puts text on the clipboard |
 * | `openFile(path)` | a file in a result block: an inert document or picture with the system's app, anything else shown in its folder (allowed places only) |
 * | `onCommand(listener)` | `"open"` (focus the first blip) or `"settings"`, from the tray or shortcut |
 */
import { BRIDGE_KEY, CHANNELS, COMMAND_CHANNEL, SHELL_COMMANDS, type ShellCommand } from "./channels.js";
import type { ElectronPreload } from "./electron-api.js";
import type { SvcShell } from "./shell-api.js";

/** `window.svcShell` as the preload builds it (declared once in `shell-api.ts`). */
export function createBridge(electron: ElectronPreload): SvcShell {
  const { ipcRenderer, webUtils } = electron;
  const invoke = (channel: string, ...args: unknown[]) => ipcRenderer.invoke(channel, ...args);
  return Object.freeze({
    // Typed `unknown` here: whatever the page passes is checked, not trusted.
    async registerDroppedFile(file: unknown) {
      // Only the preload can turn a dropped File into its path; an empty path is not a real file.
      const path = webUtils.getPathForFile(file);
      if (!path) throw new Error("not a file from the disk");
      return { handle: String(await invoke(CHANNELS.registerDrop, path)) };
    },
    setExpanded: async (expanded: boolean) =>
      void (await invoke(expanded === true ? CHANNELS.expand : CHANNELS.collapse)),
    setClickThrough: async (through: boolean) => void (await invoke(CHANNELS.clickThrough, through === true)),
    copyText: async (text: string) => void (await invoke(CHANNELS.writeClipboard, String(text))),
    openFile: async (path: string) => void (await invoke(CHANNELS.openFile, String(path))),
    onCommand(listener: (command: ShellCommand) => void) {
      if (typeof listener !== "function") throw new TypeError("onCommand needs a function");
      // The page gets the command's name only, never the IPC event (it holds the sender).
      ipcRenderer.on(COMMAND_CHANNEL, (_event, command) => {
        if ((SHELL_COMMANDS as readonly unknown[]).includes(command)) listener(command as ShellCommand);
      });
    },
  });
}

/** Puts the bridge on `window.svcShell`. */
export function exposeBridge(electron: ElectronPreload): void {
  electron.contextBridge.exposeInMainWorld(BRIDGE_KEY, createBridge(electron));
}
