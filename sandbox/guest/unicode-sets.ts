/**
 * The `v` flag (unicodeSets). QuickJS-ng accepts it but parses classes as with `u` and never
 * matches `\p{…}` under it: set operations (`[A--B]`, `[A&&B]`), nested classes and `\q{…}`
 * strings fail or never match. svckit's bundles turn every `/…/v` literal into
 * `new RegExp(source, "v")` (target es2022), so the prelude's RegExp translates such a pattern
 * into the same language under `u`: a difference becomes a negative lookahead before the
 * class, an intersection a positive one, a nested class or `\q{…}` an alternative
 * (unicode-sets-translate.ts, compiled on first use). `source` and `flags` still read as
 * written; `unicode` reads true and `unicodeSets` false (what the engine runs).
 */
const NativeRegExp = RegExp;
const proto = NativeRegExp.prototype;
const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
/**
 * @example installUnicodeSets() // once, in the prelude
 */
export function installUnicodeSets(translator: () => (source: string) => string): void {
  /** Translated expressions: what they read as. */
  const written = new WeakMap<object, { source: string; flags: string }>();
  const LocalRegExp = function RegExp(this: unknown, pattern: unknown, flags?: unknown) {
    const isRegExp = pattern instanceof NativeRegExp;
    if (new.target === undefined && isRegExp && flags === undefined && (pattern as RegExp).constructor === LocalRegExp)
      return pattern;
    const text = flags === undefined ? (isRegExp ? (pattern as RegExp).flags : "") : String(flags);
    if (!text.includes("v")) return Reflect.construct(NativeRegExp, [pattern, flags], new.target ?? LocalRegExp);
    const source = isRegExp ? (pattern as RegExp).source : pattern === undefined ? "(?:)" : String(pattern);
    if (text.includes("u")) throw new SyntaxError("Invalid regular expression flags: u and v together");
    const made = Reflect.construct(
      NativeRegExp,
      [translator()(source), text.replace("v", "u")],
      new.target ?? LocalRegExp,
    );
    written.set(made, { source, flags: text });
    return made;
  } as unknown as RegExpConstructor;
  defineProperty(LocalRegExp, "name", { value: "RegExp" }); // the prelude is minified
  defineProperty(LocalRegExp, "length", { value: 2 });
  defineProperty(LocalRegExp, "prototype", { value: proto, writable: false });
  defineProperty(LocalRegExp, Symbol.species, getOwnPropertyDescriptor(NativeRegExp, Symbol.species)!);
  defineProperty(proto, "constructor", { value: LocalRegExp, writable: true, configurable: true });

  // Only `source` and `flags`: the native `flags` getter reads `unicode` and `unicodeSets`
  // through their properties, and anchored-regexp.ts relies on it for the real flags.
  const reads: Record<string, (record: { source: string; flags: string }) => unknown> = {
    source: (r) => r.source,
    flags: (r) => [...r.flags].sort().join(""),
  };
  for (const [name, read] of Object.entries(reads)) {
    const native = getOwnPropertyDescriptor(proto, name)!.get!;
    const getter = function (this: object) {
      const record = written.get(this);
      return record ? read(record) : native.call(this);
    };
    defineProperty(getter, "name", { value: `get ${name}` });
    defineProperty(proto, name, { get: getter, configurable: true });
  }
  defineProperty(globalThis, "RegExp", { value: LocalRegExp, writable: true, configurable: true });
}
