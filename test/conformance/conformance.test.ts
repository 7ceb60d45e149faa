/**
 * The sandbox against the world's own test suites: a sample of test262 and web-platform-tests
 * (README.md here says which files and why), run in the real sandbox and on Node side by side.
 * The sandbox must pass every test Node passes, apart from the exceptions named in
 * exceptions.ts and sdk/README.md. Prints one line per suite with both counts.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXCEPTIONS, exceptionFor } from "./exceptions.js";
import { SUITES, failureLines, passed, runConformance, summaryLines, type SuiteResult } from "./runner.js";

let results: SuiteResult[];
beforeAll(async () => {
  results = await runConformance();
}, 300_000);
afterAll(() => {
  // CONFORMANCE_VERBOSE=1 lists every test either side failed, with both messages
  if (results && process.env.CONFORMANCE_VERBOSE) console.log(failureLines(results).join("\n"));
  if (results)
    console.log(`conformance (guests in another zone than the process):\n${summaryLines(results).join("\n")}`);
});

/** Tests Node passes and the sandbox fails, with the sandbox's message. */
function behindNode(result: SuiteResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const test of result.tests) {
    const sandbox = result.sandbox.get(test);
    if (result.node.get(test)?.ok && !sandbox?.ok) out[test] = sandbox?.message ?? "no result";
  }
  return out;
}

describe("conformance with test262 and web-platform-tests", () => {
  for (const suite of SUITES) {
    it(`${suite.name}: the sandbox passes every test Node passes, or a named exception`, () => {
      const result = results.find((r) => r.suite === suite)!;
      expect(result.tests.length).toBeGreaterThan(0);
      const unexplained = Object.fromEntries(
        Object.entries(behindNode(result)).filter(([test]) => !exceptionFor(test)),
      );
      expect(unexplained).toEqual({});
      const excused = Object.keys(behindNode(result)).length;
      expect(passed(result, "sandbox") + excused).toBeGreaterThanOrEqual(passed(result, "node"));
    });
  }

  it("every exception is a test the sandbox still fails and Node passes, named in sdk/README.md", () => {
    const readme = readFileSync(new URL("../../sdk/README.md", import.meta.url), "utf8");
    const failing = results.flatMap((r) => Object.keys(behindNode(r)));
    for (const exception of EXCEPTIONS) {
      expect(
        failing.some((test) => exceptionFor(test) === exception),
        String(exception.test),
      ).toBe(true);
      expect(readme.includes(exception.readme), `sdk/README.md should name "${exception.readme}"`).toBe(true);
    }
  });

  it("the defects of issue 29 are in the sample: files behind each one run", () => {
    const ran = new Set(results.flatMap((r) => r.tests));
    for (const file of [
      "test/built-ins/Date/prototype/setMonth/new-value-time-clip.js", // Date at 8.64e15 in another zone
      "test/built-ins/Date/prototype/toString/format.js", // the zone's name in parentheses
      "test/built-ins/Date/prototype/setHours/arg-hour-to-number.js", // setHours() is NaN
      "test/built-ins/Date/prototype/setMonth/arg-date-to-number.js", // setMonth(6, undefined) is NaN
      "test/built-ins/RegExp/unicodeSets/generated/string-literal-difference-character-class-escape.js", // \q{…} escapes
      "test/intl402/Collator/prototype/resolvedOptions/name.js", // Intl function metadata
      "fetch/api/headers/headers-basic.any.js › Create headers with null should throw",
    ]) {
      expect(ran.has(file), file).toBe(true);
    }
  });
});
