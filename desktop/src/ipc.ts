/**
 * The main-process side of the preload's functions. Each handler first checks who is asking:
 * the notch window's own web contents, its main frame (not an iframe), on the UI's origin. A
 * refused sender gets an error and changes nothing. Arguments are checked as if from a stranger.
 */
import { isAbsolute } from "node:path";
import { CHANNELS, MAX_CLIPBOARD_CHARS, MAX_PATH_CHARS } from "./channels.js";
import type { IpcMain, IpcMainInvokeEvent, WebContents } from "./electron-api.js";

/** What the handlers act on; `desktop.ts` wires them to the window, the clipboard and the host. */
export interface IpcTargets {
  /** The notch window's web contents (the only sender served). */
  contents(): WebContents | undefined;
  /** `http://127.0.0.1:<ui-port>`, once the page is loaded. */
  origin(): string | undefined;
  expand(): void;
  collapse(): void;
  setClickThrough(on: boolean): void;
  writeClipboard(text: string): Promise<void> | void;
  /**
   * A path the person dropped or picked → the host's opaque handle for it (rejects with `Refused` when the host says
   * no).
   */
  registerDrop(path: string): Promise<string> | string;
  /**
   * Opens a file from a result block (or shows it in its folder); resolves with an error message
   * for the page, or nothing.
   */
  openFile(path: string): Promise<string | undefined>;
  log(message: string): void;
}

/** Why a sender is refused, or undefined when it is the notch page. */
export function senderProblem(
  event: IpcMainInvokeEvent,
  targets: Pick<IpcTargets, "contents" | "origin">,
): string | undefined {
  const contents = targets.contents();
  const origin = targets.origin();
  // By id: Electron may hand a listener a different wrapper object for the same web contents.
  if (!contents || event.sender?.id !== contents.id) return "not the notch window";
  const frame = event.senderFrame;
  if (!frame) return "the frame is gone";
  if (frame.parent !== null) return "not the page's main frame";
  if (origin === undefined || frame.origin !== origin) return `not svc's page (${String(frame.origin).slice(0, 100)})`;
  return undefined;
}

/** A refusal whose message the page may show (anything else is logged and answered generically). */
export class Refused extends Error {}

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== "string") throw new Refused(`${what} should be text`);
  if (value.length > max) throw new Refused(`${what} is longer than ${max.toLocaleString("en-US")} characters`);
  return value;
}

function absolutePath(value: unknown): string {
  const path = text(value, "the path", MAX_PATH_CHARS);
  if (!isAbsolute(path) || path.includes("\0")) throw new Refused("the path should be absolute");
  return path;
}

/**
 * Registers every channel; returns the function that removes them.
 *
 * @example
 * const stop = registerIpc(ipcMain, targets);
 */
export function registerIpc(ipcMain: IpcMain, targets: IpcTargets): () => void {
  const handlers: Record<(typeof CHANNELS)[keyof typeof CHANNELS], (...args: unknown[]) => unknown> = {
    [CHANNELS.expand]: () => targets.expand(),
    [CHANNELS.collapse]: () => targets.collapse(),
    [CHANNELS.clickThrough]: (on) => {
      if (typeof on !== "boolean") throw new Refused("click-through should be true or false");
      targets.setClickThrough(on);
    },
    [CHANNELS.writeClipboard]: (value) => targets.writeClipboard(text(value, "the text to copy", MAX_CLIPBOARD_CHARS)),
    [CHANNELS.registerDrop]: (path) => targets.registerDrop(absolutePath(path)),
    [CHANNELS.openFile]: async (path) => {
      const error = await targets.openFile(absolutePath(path));
      if (error) throw new Refused(error);
    },
  };
  for (const [channel, handler] of Object.entries(handlers)) {
    ipcMain.handle(channel, async (event, ...args) => {
      const problem = senderProblem(event, targets);
      if (problem) {
        targets.log(`refused ${channel} from ${problem}`);
        throw new Error(`refused: ${problem}`);
      }
      try {
        return await handler(...args);
      } catch (error) {
        if (error instanceof Refused) throw new Error(error.message);
        targets.log(`${channel} failed: ${(error as Error)?.message ?? String(error)}`);
        throw new Error(`${channel} failed; details are in the svc log`);
      }
    });
  }
  return () => Object.keys(handlers).forEach((channel) => ipcMain.removeHandler(channel));
}
