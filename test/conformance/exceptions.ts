/**
 * The tests Node 20 passes and the sandbox does not, each for a reason svc chose and named in
 * sdk/README.md (the `readme` phrase must appear there). conformance.test.ts fails on any other
 * such test, and on an exception no test needs any more (then it is dropped here and there).
 */
export interface Exception {
  /** A test (`file` or `file › subtest`), or a pattern for a family of them. */
  test: string | RegExp;
  reason: string;
  /** Words sdk/README.md says it with, so an author finds it. */
  readme: string;
}

export const EXCEPTIONS: Exception[] = [
  {
    test: "test/built-ins/RegExp/unicodeSets/generated/property-of-strings-escape-union-character.js",
    reason:
      "properties of strings (\\p{Emoji_Keycap_Sequence}, \\p{RGI_Emoji} …) under the v flag: QuickJS-ng's Unicode tables hold no sequence properties, and carrying the emoji sequence lists (thousands of strings) in every sandbox is not worth it",
    readme: "properties of strings",
  },
  {
    test: /^encoding\/textdecoder-streaming\.any\.js › .* \((resizable )?SharedArrayBuffer\)$/,
    reason:
      "WPT makes its SharedArrayBuffer through WebAssembly.Memory({ shared: true }) (common/sab.js), and the guest has no WebAssembly; the same decoding on ArrayBuffers passes",
    readme: "no `WebAssembly`",
  },
];

/** The exception covering `test`, if any. */
export function exceptionFor(test: string): Exception | undefined {
  return EXCEPTIONS.find((e) => (typeof e.test === "string" ? e.test === test : e.test.test(test)));
}
