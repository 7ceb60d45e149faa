/**
 * What the desktop shell may offer the page (its preload puts `window.svcShell`, see
 * desktop/src/bridge.ts). Every hook is optional: in a plain browser there is none, and the page
 * works the same.
 */
export interface ShellHooks {
  /** The notch grew into the panel (true) or shrank back (false). */
  setExpanded?(expanded: boolean): Promise<void> | void;
  /** While collapsed, clicks pass through transparent areas. */
  setClickThrough?(through: boolean): Promise<void> | void;
  /** Copies text to the clipboard. */
  copyText?(text: string): Promise<void> | void;
  /**
   * The path of a file the person dropped, where a shell offers it (the tools tray's drop
   * actions use it; without it drops are off). The Electron shell hands out opaque handles
   * instead (`registerDroppedFile`), which the host does not resolve yet.
   */
  pathForFile?(file: File): string;
  /** Commands from the tray or the shortcut: `open` (focus the first blip) or `settings`. */
  onCommand?(listener: (command: "open" | "settings") => void): void;
}

export function shellHooks(): ShellHooks {
  const hooks = (globalThis as { svcShell?: unknown }).svcShell;
  return typeof hooks === "object" && hooks !== null ? (hooks as ShellHooks) : {};
}
