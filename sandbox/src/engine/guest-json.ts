/**
 * Reading JSON text that came from a guest: the length is checked before anything else, the
 * nesting depth is counted on the text (so no deep structure is ever built), and `__proto__`
 * keys are dropped while parsing, so a guest value can never reach a Node object's prototype.
 */
import { MAX_JSON_DEPTH } from "../limits.js";

/**
 * Parses guest JSON after checking its size and depth; errors say which op and which limit.
 *
 * @example parseGuestJson('{"key":"a"}', "remove", 1_048_576) // { key: "a" }
 */
export function parseGuestJson(text: string, op: string, maxChars: number): unknown {
  if (text.length > maxChars) {
    throw new RangeError(`${op}: the arguments are ${text.length} characters of JSON, over the limit of ${maxChars}`);
  }
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw new RangeError(`${op}: the arguments are nested ${depth} levels deep, over the limit of ${MAX_JSON_DEPTH}`);
  }
  // The reviver costs a call per value; a text that neither spells `__proto__` nor has a `\u`
  // escape (which could spell it) cannot produce that key, so it is parsed without one.
  return mayHaveProtoKey(text) ? JSON.parse(text, dropProtoKeys) : JSON.parse(text);
}

function mayHaveProtoKey(text: string): boolean {
  return text.includes("__proto__") || text.includes("\\u");
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

/** Deepest `[`/`{` nesting in JSON text, skipping string contents. Stops counting past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > MAX_JSON_DEPTH) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
