/**
 * What kind of text the clipboard holds (SPEC.md `clipboardKinds`), decided locally, so the
 * tools that read it are offered first with the text filled in. The clipboard is read only when
 * the notch opens, and nothing of it leaves the page unless the person runs a tool.
 */
import type { ClipboardKind } from "@svc/api";

const UUID = /^(urn:uuid:)?\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;
const JWT = /^(Bearer\s+)?eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const EPOCH = /^\d{10}(\d{3})?$/;
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const COLOR = /^(#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(rgba?|hsla?|oklch)\([^)]*\))$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Longest clipboard text looked at (the tools' fields take at most 1 MB anyway). */
export const MAX_CLIPBOARD_CHARS = 1_000_000;

/**
 * @example
 * clipboardKinds("https://example.com/a?b=1") // ["url"]
 * clipboardKinds('{"a": 1}')                  // ["json"]
 */
export function clipboardKinds(raw: string): ClipboardKind[] {
  if (raw.length > MAX_CLIPBOARD_CHARS) return [];
  const text = raw.trim();
  if (text === "") return [];
  if (/^curl\s/.test(text)) return ["curl"];
  if (JWT.test(text)) return ["jwt"];
  if (UUID.test(text)) return ["uuid"];
  if (EPOCH.test(text) || ISO.test(text)) return ["timestamp"];
  if (COLOR.test(text)) return ["color"];
  if (/^[[{]/.test(text)) {
    try {
      JSON.parse(text);
      return ["json"];
    } catch {
      return [];
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text)) return ["url"];
  // Base64 last: many short words are valid base64 too, so ask for some length and whole groups.
  const compact = text.replace(/\s+/g, "");
  if (
    compact.length >= 12 &&
    BASE64.test(compact) &&
    (compact.length % 4 === 0 || /[-_]/.test(compact)) &&
    /[0-9+/=_-]/.test(compact)
  )
    return ["base64"];
  return [];
}
