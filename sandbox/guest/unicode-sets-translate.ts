/**
 * The translation of a `v` pattern into the same language under `u` (see unicode-sets.ts): a
 * lazy part of the prelude with no globals of its own, compiled the first time a guest makes a
 * `v` expression.
 */
export const GLOBALS: string[] = [];

export function install(): (source: string) => string {
  return unicodeSetsToUnicode;
}

/** Punctuators a `v` class may escape that `u` does not allow escaped: written bare. */
const RESERVED = "&!#%,:;<=>@`~";

interface Operand {
  kind: "atoms" | "pattern";
  text: string;
  /** For `\q{…}`: its one-character strings and its longer ones, each a `u` pattern. */
  singles?: string[];
  multi?: string[];
}

/** One escape starting at `at` (a backslash): its text. */
function escapeAt(source: string, at: number): string {
  const next = source[at + 1];
  if ((next === "p" || next === "P" || next === "u" || next === "q") && source[at + 2] === "{") {
    const end = source.indexOf("}", at);
    return source.slice(at, end < 0 ? source.length : end + 1);
  }
  if (next === "u") return source.slice(at, at + 6);
  if (next === "x") return source.slice(at, at + 4);
  if (next === "c") return source.slice(at, at + 3);
  return source.slice(at, at + 2);
}

/** A code point (or escape) for inside a `u` class. */
function classAtom(text: string): string {
  if (text.length === 2 && text[0] === "\\" && RESERVED.includes(text[1])) return text[1];
  if (text === "\\-" || text === "\\^" || text === "\\]" || text === "\\[" || text === "\\\\") return text;
  if (text.length === 1 && "\\]-[^".includes(text)) return `\\${text}`;
  return text;
}

/** A character as a `u` pattern outside a class (`-` may not be escaped there). */
function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * The strings of `\q{…}` at `source[at]`, each as a `u` pattern, longest first (a class matches
 * its longest string); and where the escape ends. Escapes inside stay escapes (`\q{A\x42}` is
 * "AB"): a reserved punctuator escaped is the character itself, `\b` is a backspace.
 */
function classStrings(source: string, at: number): [{ text: string; length: number }[], number] {
  const strings: { text: string; length: number }[] = [];
  let text = "";
  let length = 0;
  let i = at + 3;
  for (; i < source.length && source[i] !== "}";) {
    if (source[i] === "|") {
      strings.push({ text, length });
      text = "";
      length = 0;
      i++;
      continue;
    }
    const atom = source[i] === "\\" ? escapeAt(source, i) : String.fromCodePoint(source.codePointAt(i)!);
    i += atom.length;
    length++;
    if (atom === "\\b") text += "\\x08";
    else if (atom.length === 2 && atom[0] === "\\" && (RESERVED.includes(atom[1]) || atom[1] === "-"))
      text += literal(atom[1]);
    else text += atom[0] === "\\" ? atom : literal(atom);
  }
  strings.push({ text, length });
  strings.sort((a, b) => b.length - a.length);
  return [strings, i + 1];
}

function asPattern(operand: Operand): string {
  return operand.kind === "atoms" ? `[${operand.text}]` : operand.text;
}

/** Translates the class at `source[at] === "["`; returns its `u` pattern and where it ends. */
function translateClass(source: string, at: number): [string, number] {
  let i = at + 1;
  const negated = source[i] === "^";
  if (negated) i++;
  const operands: Operand[] = [];
  let atoms = "";
  let operator: "--" | "&&" | undefined;
  const flushAtoms = () => {
    if (atoms) operands.push({ kind: "atoms", text: atoms });
    atoms = "";
  };
  while (i < source.length && source[i] !== "]") {
    const two = source.slice(i, i + 2);
    if (two === "--" || two === "&&") {
      flushAtoms();
      operator = two;
      i += 2;
    } else if (source[i] === "[") {
      flushAtoms();
      const [nested, end] = translateClass(source, i);
      operands.push({ kind: "pattern", text: nested });
      i = end;
    } else if (two === "\\q") {
      flushAtoms();
      const [strings, end] = classStrings(source, i);
      operands.push({
        kind: "pattern",
        text: `(?:${strings.map((s) => s.text).join("|")})`,
        singles: strings.filter((s) => s.length === 1).map((s) => s.text),
        multi: strings.filter((s) => s.length !== 1).map((s) => s.text),
      });
      i = end;
    } else {
      const first = source[i] === "\\" ? escapeAt(source, i) : String.fromCodePoint(source.codePointAt(i)!);
      i += first.length;
      if (source[i] === "-" && source[i + 1] !== "-" && source[i + 1] !== "]" && i + 1 < source.length) {
        const second =
          source[i + 1] === "\\" ? escapeAt(source, i + 1) : String.fromCodePoint(source.codePointAt(i + 1)!);
        atoms += `${classAtom(first)}-${classAtom(second)}`;
        i += 1 + second.length;
      } else atoms += classAtom(first);
    }
  }
  flushAtoms();
  let positive: string;
  if (operator && operands.length > 1) {
    positive = setOperation(operator, operands);
  } else if (operands.length === 1 && operands[0].kind === "atoms") {
    return [`[${negated ? "^" : ""}${operands[0].text}]`, i + 1];
  } else if (operands.length === 0) {
    positive = "[]";
  } else {
    positive = `(?:${operands.map(asPattern).join("|")})`;
  }
  return [negated ? `(?:(?!${positive})[^])` : positive, i + 1];
}

/**
 * `A--B--…` or `A&&B&&…` as a `u` pattern: a lookahead per later operand before the first. A
 * lookahead sees a prefix, so strings of more than one character (`\q{…}`) are set apart: a
 * longer string is never a single character, and is kept (`--`) or dropped (`&&`) by comparing
 * it with the other operands' longer strings.
 */
function setOperation(operator: "--" | "&&", operands: Operand[]): string {
  const [first, ...rest] = operands;
  const look = operator === "--" ? "?!" : "?=";
  const singlesOf = (o: Operand) => (o.singles ? `(?:${o.singles.join("|")})` : asPattern(o));
  const lookaheads = rest.map((o) =>
    o.singles && o.singles.length === 0 ? (operator === "--" ? "" : "(?!)") : `(${look}${singlesOf(o)})`,
  );
  const characters = first.singles && first.singles.length === 0 ? "" : `${lookaheads.join("")}${singlesOf(first)}`;
  const longer = (first.multi ?? []).filter((text) =>
    operator === "--" ? rest.every((o) => !o.multi?.includes(text)) : rest.every((o) => o.multi?.includes(text)),
  );
  const alternatives = [...longer, ...(characters ? [characters] : [])];
  return alternatives.length === 0 ? "[]" : `(?:${alternatives.join("|")})`;
}

/**
 * A `v` pattern as the same language under `u`.
 *
 * @example unicodeSetsToUnicode("[\\p{L}--[a-z]]") // "(?:(?![a-z])[\\p{L}])"
 */
export function unicodeSetsToUnicode(source: string): string {
  let out = "";
  for (let i = 0; i < source.length;) {
    if (source[i] === "\\") {
      const escape = escapeAt(source, i);
      out += escape;
      i += escape.length;
    } else if (source[i] === "[") {
      const [pattern, end] = translateClass(source, i);
      out += pattern;
      i = end;
    } else out += source[i++];
  }
  return out;
}
