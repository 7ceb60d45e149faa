/**
 * What the desktop shell may offer the page (its preload puts `window.svcShell`). Every hook is
 * optional: in a plain browser there is none, and the page works the same.
 */
export interface ShellHooks {
  /** The notch grew into the panel (true) or shrank back (false). */
  setExpanded?(expanded: boolean): void;
  /** While collapsed, clicks pass through transparent areas. */
  setClickThrough?(through: boolean): void;
  /** Copies text to the clipboard. */
  copyText?(text: string): void;
  /** The path of a file the person picked or dropped (Electron's webUtils.getPathForFile). */
  pathForFile?(file: File): string;
}

export function shellHooks(): ShellHooks {
  const hooks = (globalThis as { svcShell?: unknown }).svcShell;
  return typeof hooks === "object" && hooks !== null ? (hooks as ShellHooks) : {};
}
