/**
 * What a displayed string may hold. Extensions and pushers are strangers; their text is shown in
 * terminals, in the install prompt, in logs and on the page. A control character, an escape
 * sequence or a bidi override there can hide lines, rename a terminal or disguise a file name
 * (`invoice\u202Eexe.pdf` reads as `invoicefdp.exe`). One rule, used everywhere:
 *
 * - **Unsafe**: C0 controls (U+0000–001F), DEL, C1 controls (U+0080–009F), bidi embeddings,
 *   overrides and isolates (U+202A–202E, U+2066–2069), the directional marks U+200E, U+200F and
 *   U+061C, and lone surrogates. Multi-line text may keep `\n` and `\t`.
 * - **At entry** (manifest, payloads, tool results, notify, OAuth labels) an unsafe character is
 *   refused with the field's path: `findUnsafeCharacter` / `displayText()`.
 * - **At display** (terminal, install prompt, log lines, the page) every string is escaped again,
 *   whatever was checked before: `escapeForDisplay` turns each unsafe character into visible,
 *   inert text such as `\u{1b}` and clips to a length cap.
 */
import { z } from "zod";

/** Characters no displayed string may hold (see the module comment). `u` flag: code points. */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, "g");

/** How a string is shown: on one line (titles, labels) or over several (bodies, code, logs). */
export interface DisplayOptions {
  /** Keep `\n` and `\t` (default false: they are escaped like any other control). */
  readonly multiline?: boolean;
  /** Clip to this many characters, ending in `…` (default: no cap). */
  readonly max?: number;
}

/** The ellipsis that marks clipped text. */
export const ELLIPSIS = "…";

function isAllowedWhitespace(char: string, multiline: boolean): boolean {
  return multiline && (char === "\n" || char === "\t");
}

/** The visible, inert form of one unsafe character: `\u{1b}`. */
function escapeCharacter(char: string): string {
  return `\\u{${char.charCodeAt(0).toString(16)}}`;
}

/**
 * The first unsafe character of `text` and where it is, or undefined when the text is safe.
 *
 * @example
 * findUnsafeCharacter("ok")                 // undefined
 * findUnsafeCharacter("a\u001b[2J")         // { index: 1, codePoint: 0x1b, name: "U+001B" }
 * findUnsafeCharacter("a\nb", { multiline: true }) // undefined
 */
export function findUnsafeCharacter(
  text: string,
  options: Pick<DisplayOptions, "multiline"> = {},
): { index: number; codePoint: number; name: string } | undefined {
  const multiline = options.multiline ?? false;
  UNSAFE_GLOBAL.lastIndex = 0;
  for (let match = UNSAFE_GLOBAL.exec(text); match; match = UNSAFE_GLOBAL.exec(text)) {
    if (isAllowedWhitespace(match[0], multiline)) continue;
    const codePoint = match[0].charCodeAt(0);
    return { index: match.index, codePoint, name: `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}` };
  }
  return undefined;
}

/** True when `text` holds no unsafe character. */
export function isDisplaySafe(text: string, options: Pick<DisplayOptions, "multiline"> = {}): boolean {
  return findUnsafeCharacter(text, options) === undefined;
}

/**
 * `text` made inert for any display: each unsafe character becomes visible text (`\u{1b}`),
 * then the result is clipped to `max` characters with `…`. Never throws; non-strings are shown
 * through `String()`.
 *
 * @example
 * escapeForDisplay("\u001b]0;pwned\u0007")       // "\\u{1b}]0;pwned\\u{7}"
 * escapeForDisplay("invoice\u202Eexe.pdf")        // "invoice\\u{202e}exe.pdf"
 * escapeForDisplay("x".repeat(10), { max: 4 })   // "xxx…"
 */
export function escapeForDisplay(text: unknown, options: DisplayOptions = {}): string {
  const multiline = options.multiline ?? false;
  const raw = typeof text === "string" ? text : String(text);
  const escaped = UNSAFE.test(raw)
    ? raw.replace(UNSAFE_GLOBAL, (char) => (isAllowedWhitespace(char, multiline) ? char : escapeCharacter(char)))
    : raw;
  return cutToLength(escaped, options.max);
}

/** Cuts `text` to at most `max` characters (code units), the last being `…`; never splits a pair. */
export function cutToLength(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  if (max <= 0) return "";
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/**
 * A zod string for text that will be displayed: refuses unsafe characters with a message naming
 * the character, and (when given) a length cap.
 *
 * @example
 * displayText({ max: 64 }).parse("Deploy api")     // ok
 * displayText().parse("a\u202Eb")                   // throws: should not contain U+202E (a control or bidi character; found at 1)
 */
export function displayText(options: DisplayOptions = {}) {
  const base = options.max === undefined ? z.string() : z.string().max(options.max);
  return base.superRefine((value, ctx) => {
    const found = findUnsafeCharacter(value, options);
    if (found) {
      ctx.addIssue({
        code: "custom",
        message: `should not contain ${found.name} (a control or bidi character; found at ${found.index})`,
      });
    }
  });
}

/** One line of displayed text (titles, labels, names): no controls, no bidi characters. */
// `@__PURE__`: bundlers may drop these when unused, so a page that needs only escapeForDisplay
// does not carry zod (the notch UI's bundle: 48 KB instead of 500 KB).
export const displayLine = /* @__PURE__ */ displayText();

/** Displayed text that must not be empty. */
export const nonEmptyDisplayLine = /* @__PURE__ */ displayText().min(1, { error: "should not be empty" });

/** Displayed text that may span lines (`\n` and `\t` kept): descriptions, bodies. */
export const displayParagraph = /* @__PURE__ */ displayText({ multiline: true });

/**
 * JSON text that is also inert on a terminal: `JSON.stringify` leaves bidi controls and C1
 * characters as they are, so each unsafe character becomes a `\uXXXX` escape (still valid JSON,
 * parsing back to the same value).
 *
 * @example
 * jsonForDisplay({ t: "a\u202Eb" }) // '{"t":"a\\u202eb"}'
 */
export function jsonForDisplay(value: unknown): string {
  const json = JSON.stringify(value) ?? "null";
  return json.replace(UNSAFE_GLOBAL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
