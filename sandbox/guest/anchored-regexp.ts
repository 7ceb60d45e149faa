/**
 * QuickJS tries a regular expression at every position of the input unless it is sticky, even
 * when it starts with `^` (no `m` flag), where only position 0 can match: a failing
 * `/^…/.exec(rest)` scans all of `rest`. Lexers that match anchored rules against the rest of
 * the input (marked, for one) become quadratic: a 24 KB Markdown document took over a second.
 * So `exec` runs such an expression as its sticky twin from position 0: the same matches, one
 * position tried. Only expressions anchored in every top-level alternative, without the `g`,
 * `y` or `m` flags, have a twin; any other runs as it is.
 */
const nativeExec = RegExp.prototype.exec;
const NativeRegExp = RegExp;
const callOf = Function.prototype.call.bind(Function.prototype.call) as (fn: Function, self: unknown, ...args: unknown[]) => any;
const sourceOf = Object.getOwnPropertyDescriptor(RegExp.prototype, "source")!.get!;
/** The native flag getters: `flags` itself reads them through properties the prelude may replace (unicode-sets.ts). */
const FLAG_GETTERS = ([["d", "hasIndices"], ["g", "global"], ["i", "ignoreCase"], ["m", "multiline"], ["s", "dotAll"], ["u", "unicode"], ["v", "unicodeSets"], ["y", "sticky"]] as const)
  .map(([letter, name]) => [letter, Object.getOwnPropertyDescriptor(RegExp.prototype, name)!.get!] as const);
function flagsOf(regexp: RegExp): string {
  let flags = "";
  for (const [letter, get] of FLAG_GETTERS) if (callOf(get, regexp)) flags += letter;
  return flags;
}
const defineProperty = Object.defineProperty;
const MAX_TEXTS = 1024;

/** True when every top-level alternative of `source` starts with `^`. */
export function isAnchored(source: string, unicodeSets: boolean): boolean {
  let depth = 0;
  let classDepth = 0;
  let alternativeStart = true;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (alternativeStart) {
      if (c !== "^") return false;
      alternativeStart = false;
      continue;
    }
    if (c === "\\") i++;
    else if (classDepth > 0) {
      if (c === "]") classDepth--;
      else if (c === "[" && unicodeSets) classDepth++;
    } else if (c === "[") classDepth++;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) alternativeStart = true;
  }
  return !alternativeStart;
}

/**
 * @example installAnchoredRegExp() // once, in the prelude
 */
export function installAnchoredRegExp(): void {
  /** Each expression's sticky twin, or null when it has none; by object, and by text (a literal in a function is a new object each time). */
  const twins = new WeakMap<object, RegExp | null>();
  const byText = new Map<string, RegExp | null>();
  function twinOf(regexp: RegExp): RegExp | null {
    let twin = twins.get(regexp);
    if (twin !== undefined) return twin;
    try {
      const source = callOf(sourceOf, regexp) as string; // throws for what is not a RegExp
      const flags = flagsOf(regexp);
      const text = `${flags}/${source}`;
      twin = byText.get(text);
      if (twin === undefined) {
        twin = /[gym]/.test(flags) || !isAnchored(source, flags.includes("v")) ? null : new NativeRegExp(source, `${flags}y`);
        if (byText.size >= MAX_TEXTS) byText.delete(byText.keys().next().value!);
        byText.set(text, twin);
      }
    } catch {
      return null; // not a RegExp: the native exec says so
    }
    twins.set(regexp, twin);
    return twin;
  }
  const exec = function exec(this: RegExp, input: unknown) {
    const twin = typeof this === "object" && this !== null ? twinOf(this) : null;
    if (twin === null) return callOf(nativeExec, this, input);
    // The original's lastIndex is read (and ignored) as the spec asks; the twin starts at 0.
    void this.lastIndex;
    twin.lastIndex = 0;
    return callOf(nativeExec, twin, input);
  };
  defineProperty(RegExp.prototype, "exec", { value: exec, writable: true, configurable: true });
}
