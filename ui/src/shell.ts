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
   * A file the person dropped or picked → an opaque handle the host resolves (UI.md "File
   * paths"): the shell turns the file into its path and registers it with the host, so the page
   * never holds a path. Tool drop actions, file fields and install review send `{handle}`.
   * Without it (a plain browser) drops are off and file fields take typed paths.
   */
  registerDroppedFile?(file: File): Promise<{ handle: string }>;
  /**
   * Opens a file a tool made (a drop action's outputs): the shell opens an inert document or
   * picture with the system's app and shows anything else in its folder, only from an
   * extension's data folder or among the files the person gave; rejects with why.
   */
  openFile?(path: string): Promise<void>;
  /** Commands from the tray or the shortcut: `open` (focus the first blip) or `settings`. */
  onCommand?(listener: (command: "open" | "settings") => void): void;
}

export function shellHooks(): ShellHooks {
  const hooks = (globalThis as { svcShell?: unknown }).svcShell;
  return typeof hooks === "object" && hooks !== null ? (hooks as ShellHooks) : {};
}

/** A file the person gave through the shell: its handle, and its name to show (never its path). */
export interface GivenFile {
  handle: string;
  name: string;
}

/**
 * Registers each file with the shell, in order. Rejects with the shell's message when one is
 * not a file from the disk (a folder, text dragged from a page) or the host refuses it.
 *
 * @example
 * const given = await giveFiles(shell, [...event.dataTransfer.files]); // [{handle, name}]
 */
export async function giveFiles(shell: ShellHooks, files: readonly File[]): Promise<GivenFile[]> {
  const register = shell.registerDroppedFile;
  if (!register) throw new Error("files can be dropped in the svc app only: a browser gives the page no file paths");
  const given: GivenFile[] = [];
  for (const file of files) {
    try {
      const { handle } = await register(file);
      given.push({ handle, name: file.name });
    } catch (error) {
      throw new Error(`${file.name}: ${shellMessage(error)}`);
    }
  }
  return given;
}

/** A shell refusal's own words: Electron prefixes a main-process error with "Error invoking remote method '…': Error: ". */
export function shellMessage(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  return message.replace(/^Error invoking remote method '[^']*': (?:Error: )?/, "");
}
