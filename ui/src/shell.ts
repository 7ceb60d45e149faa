/**
 * What the desktop shell may offer the page: `window.svcShell`, declared once in
 * desktop/src/shell-api.ts (its preload builds it, desktop/src/bridge.ts). Every hook is
 * optional here: in a plain browser there is none, and the page works the same.
 */
import type { SvcShell } from "../../desktop/src/shell-api.js";

export type ShellHooks = Partial<SvcShell>;

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
