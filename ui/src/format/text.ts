/**
 * Every string from an extension or a push is shown through `@svc/api`'s one display-text rule
 * (controls and bidi overrides made visible and inert), clipped per field.
 */
import { escapeForDisplay } from "@svc/api";

/** Length caps per kind of field (characters). Longer text ends in `…`. */
export const CAPS = { title: 120, subtitle: 200, label: 80, value: 80, body: 2000, url: 300 } as const;

/** `text` made safe to show, on one line, clipped to `max`. Non-strings are shown through String(). */
export function shown(text: unknown, max: number = CAPS.subtitle): string {
  return escapeForDisplay(text ?? "", { max });
}

/** For text over several lines (notify bodies, descriptions). */
export function shownLines(text: unknown, max: number = CAPS.body): string {
  return escapeForDisplay(text ?? "", { max, multiline: true });
}

/** The address when it is an http or https page, otherwise undefined (never `javascript:`, `file:`, `data:`…). */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
