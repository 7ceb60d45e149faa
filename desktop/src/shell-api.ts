/**
 * `window.svcShell`, declared once: what the desktop shell's preload puts on the page
 * (`bridge.ts` builds it) and what the page may call (ui/src/shell.ts imports this type). Types
 * only, so the page's bundle takes nothing of the shell's code.
 */
import type { ShellCommand } from "./channels.js";

export type { ShellCommand };

export interface SvcShell {
  /**
   * A file the person dropped or picked → an opaque handle the host resolves (UI.md "File
   * paths"): the shell turns the file into its path and registers it with the host, so the page
   * never holds a path. Rejects when it is not a file from the disk or the host refuses it.
   */
  registerDroppedFile(file: File): Promise<{ handle: string }>;
  /** The notch grew into the panel (true: it takes the mouse, not the focus) or shrank back (click-through). */
  setExpanded(expanded: boolean): Promise<void>;
  /** While collapsed: off while the pointer is over the pill, on when it leaves. */
  setClickThrough(through: boolean): Promise<void>;
  /** Puts text on the clipboard. */
  copyText(text: string): Promise<void>;
  /**
   * Opens a file a tool made (a drop action's outputs): an inert document or picture with the
   * system's app, anything else shown in its folder, only from allowed places; rejects with why.
   */
  openFile(path: string): Promise<void>;
  /** Commands from the tray or the shortcut: `open` (focus the first blip) or `settings`. */
  onCommand(listener: (command: ShellCommand) => void): void;
}
