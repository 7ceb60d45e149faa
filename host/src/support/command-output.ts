/**
 * What a terminal command (`svc-host install`, `update`, `revoke`, `ui`, the manage commands,
 * svc-hook) prints when it fails. Its message can hold a stranger's text: a package's file or
 * entry name, an address, an answer from the app. Made inert with `@svc/api`'s display rule, so
 * no escape sequence in it reaches the person's terminal (retitling the window, clearing the
 * screen, hiding what came before).
 */
import { escapeForDisplay } from "@svc/api";

/** The longest message a command prints in one error line. */
export const ERROR_LINE_MAX = 1000;

/**
 * `<who>: <message>` and a newline; the message on one line, every control and bidi character
 * shown as text (`\u{1b}`), clipped to {@link ERROR_LINE_MAX}.
 *
 * @example
 * errorLine("svc-host install", "cannot install x\u001b[2J.svc") // "svc-host install: cannot install x\\u{1b}[2J.svc\n"
 */
export function errorLine(who: string, message: unknown): string {
  const text = message instanceof Error ? message.message : message;
  return `${who}: ${escapeForDisplay(text, { max: ERROR_LINE_MAX })}\n`;
}

/** An unexpected failure: its stack, line by line, every other control character made inert. */
export function crashText(who: string, error: unknown): string {
  return `${who}: ${escapeForDisplay((error as Error)?.stack ?? String(error), { multiline: true })}\n`;
}
