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
const callOf = Function.prototype.call.bind(Function.prototype.call) as (
  fn: Function,
  self: unknown,
  ...args: unknown[]
) => any;
const sourceOf = Object.getOwnPropertyDescriptor(RegExp.prototype, "source")!.get!;
/**
 * The native `flags` getter. It reads each flag through its property; unicode-sets.ts replaces
 * only `flags` and `source`, so these reads stay native (and one call costs ~2 µs here, where
 * eight getter calls cost ~17).
 */
const nativeFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags")!.get!;
const defineProperty = Object.defineProperty;
const MAX_TEXTS = 1024;
/** Inputs shorter than this run as they are. */
const SHORT_INPUT = 512;

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
  /**
   * Each expression's sticky twin, or null when it has none; by object, and by text (a literal in a function is a new
   * object each time).
   */
  const twins = new WeakMap<object, RegExp | null>();
  const byText = new Map<string, RegExp | null>();
  function twinOf(regexp: RegExp, source: string): RegExp | null {
    let twin = twins.get(regexp);
    if (twin !== undefined) return twin;
    const flags = callOf(nativeFlags, regexp) as string;
    const text = `${flags}/${source}`;
    twin = byText.get(text);
    if (twin === undefined) {
      twin =
        /[gym]/.test(flags) || !isAnchored(source, flags.includes("v")) ? null : new NativeRegExp(source, `${flags}y`);
      if (byText.size >= MAX_TEXTS) byText.delete(byText.keys().next().value!);
      byText.set(text, twin);
    }
    twins.set(regexp, twin);
    return twin;
  }
  const exec = function exec(this: RegExp, input: unknown) {
    // On a short input a failing scan is short too: skip the look-up (most calls end here).
    if (typeof input === "string" && input.length < SHORT_INPUT) return callOf(nativeExec, this, input);
    let source: string;
    try {
      source = callOf(sourceOf, this);
    } catch {
      return callOf(nativeExec, this, input); // not a RegExp: the native exec says so
    }
    // Most expressions do not start with ^: one getter and they run as they are.
    const twin = source.charCodeAt(0) === 94 ? twinOf(this, source) : null;
    if (twin === null) return callOf(nativeExec, this, input);
    // The original's lastIndex is read (and ignored) as the spec asks; the twin starts at 0.
    void this.lastIndex;
    twin.lastIndex = 0;
    return callOf(nativeExec, twin, input);
  };
  defineProperty(RegExp.prototype, "exec", { value: exec, writable: true, configurable: true });

  // QuickJS's replace, split, match and search take a fast path when `exec` is its own, and a
  // slow one (twice the time) otherwise: they run with the native exec in place (the twin only
  // saves time, it never changes a result), unless a guest has replaced `exec` itself.
  const proto = RegExp.prototype as unknown as Record<PropertyKey, unknown>;
  for (const symbol of [Symbol.replace, Symbol.split, Symbol.match, Symbol.search]) {
    const native = proto[symbol] as Function;
    const withNativeExec = function (this: unknown, ...args: unknown[]) {
      if (proto.exec !== exec) return callOf(native, this, ...args);
      proto.exec = nativeExec;
      try {
        return callOf(native, this, ...args);
      } finally {
        if (proto.exec === nativeExec) proto.exec = exec;
      }
    };
    defineProperty(withNativeExec, "name", { value: (native as { name: string }).name });
    defineProperty(withNativeExec, "length", { value: native.length });
    defineProperty(proto, symbol, { value: withNativeExec, writable: true, configurable: true });
  }
}
