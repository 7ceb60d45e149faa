/**
 * Turns zod issues into one line a person can act on, naming the field by a dotted path:
 * `"data.items.2.title" should be a string`. The path format is the same everywhere (payloads,
 * tool specs, manifests): object keys and array indexes joined by dots, in double quotes.
 */
import { z } from "zod";

type Issue = z.core.$ZodIssue;
type PathPart = PropertyKey;

/**
 * A dotted field path: keys and array indexes joined by `.`.
 *
 * @example
 * formatPath(["data", "items", 2, "title"]) // "data.items.2.title"
 */
export function formatPath(path: readonly PathPart[]): string {
  return path.map((part) => String(part)).join(".");
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
  undefined: "left out",
  record: "an object",
  date: "a date",
  bigint: "a bigint",
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `a ${expected}`;
}

/** Lists words as "a, b or c". */
function orList(words: string[]): string {
  const unique = [...new Set(words)];
  return unique.length <= 1 ? (unique[0] ?? "") : `${unique.slice(0, -1).join(", ")} or ${unique.at(-1)}`;
}

/** Our own schema messages are already phrased as predicates ("should …", "is …"). */
function isOwnPhrase(message: string | undefined): message is string {
  return typeof message === "string" && /^(should|is|must) /.test(message);
}

/** The deepest issue among a union's branches: the branch that got furthest into the value. */
function deepestBranchIssue(branches: Issue[][]): Issue | undefined {
  let best: Issue | undefined;
  for (const branch of branches) {
    for (const issue of branch) {
      if (issue.path.length > 0 && (!best || issue.path.length > best.path.length)) best = issue;
    }
  }
  return best;
}

/** The issue to show and what it says about its field, for an issue that may be a union's. */
function explain(issue: Issue): { path: PathPart[]; phrase: string } {
  const path = [...issue.path];
  switch (issue.code) {
    case "invalid_type":
      if (isOwnPhrase(issue.message)) return { path, phrase: issue.message };
      return { path, phrase: `should be ${typeName(issue.expected)}` };
    case "invalid_value":
      if (isOwnPhrase(issue.message)) return { path, phrase: issue.message };
      return issue.values.length === 1
        ? { path, phrase: `should be ${String(issue.values[0])}` }
        : { path, phrase: `should be one of ${issue.values.map(String).join(", ")}` };
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (Array.isArray(options)) return { path, phrase: `should be one of ${options.map(String).join(", ")}` };
      const deeper = deepestBranchIssue(issue.errors);
      if (deeper) {
        const inner = explain(deeper);
        return { path: [...path, ...inner.path], phrase: inner.phrase };
      }
      if (isOwnPhrase(issue.message)) return { path, phrase: issue.message };
      const expected = issue.errors.flat().flatMap((e) => (e.code === "invalid_type" ? [typeName(e.expected)] : []));
      return { path, phrase: expected.length ? `should be ${orList(expected)}` : "is not valid" };
    }
    case "too_big":
    case "too_small": {
      if (isOwnPhrase(issue.message)) return { path, phrase: issue.message };
      const bound = issue.code === "too_big" ? issue.maximum : issue.minimum;
      const word = issue.code === "too_big" ? "most" : "least";
      if (issue.origin === "string") return { path, phrase: `should be at ${word} ${String(bound)} characters` };
      if (issue.origin === "array" || issue.origin === "set")
        return { path, phrase: `should have at ${word} ${String(bound)} items` };
      const strict = issue.inclusive === false;
      const phrase =
        issue.code === "too_big"
          ? strict
            ? `should be less than ${String(bound)}`
            : `should be at most ${String(bound)}`
          : strict
            ? `should be more than ${String(bound)}`
            : `should be at least ${String(bound)}`;
      return { path, phrase };
    }
    case "unrecognized_keys":
      return { path: [...path, issue.keys[0] ?? ""], phrase: "is not allowed here" };
    case "invalid_format":
      return { path, phrase: isOwnPhrase(issue.message) ? issue.message : `should be a valid ${issue.format}` };
    case "not_multiple_of":
      return { path, phrase: `should be a multiple of ${String(issue.divisor)}` };
    case "invalid_key":
    case "invalid_element": {
      const inner = issue.issues[0];
      if (!inner) return { path, phrase: "is not valid" };
      const explained = explain(inner);
      const at = issue.code === "invalid_element" ? [...path, issue.key as PathPart] : path;
      return { path: [...at, ...explained.path], phrase: explained.phrase };
    }
    default:
      return { path, phrase: isOwnPhrase(issue.message) ? issue.message : `is not valid: ${issue.message}` };
  }
}

/**
 * One issue as a line: `"<field path>" <phrase>`, or `<subject> <phrase>` when the whole
 * value is at fault.
 *
 * @example
 * formatIssue(issue)            // '"data.fraction" should be at most 1'
 * formatIssue(rootIssue, "payload") // 'payload should be an object'
 */
export function formatIssue(issue: Issue, subject = "value"): string {
  const { path, phrase } = explain(issue);
  return path.length === 0 ? `${subject} ${phrase}` : `"${formatPath(path)}" ${phrase}`;
}

/**
 * Every issue of a failed parse, one line each, in the order zod found them.
 *
 * @example
 * formatIssues(result.error.issues) // ['"title" should be a string', …]
 */
export function formatIssues(issues: readonly Issue[], subject = "value"): string[] {
  return issues.map((issue) => formatIssue(issue, subject));
}

/**
 * `schema.safeParse(input)` that also survives input whose getters or proxy traps throw: such
 * input is reported as one custom issue instead of crashing the caller.
 *
 * @example
 * const r = safeParse(blockSchema, untrusted);
 */
export function safeParse<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  try {
    return schema.safeParse(input);
  } catch (thrown) {
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    const issue = { code: "custom" as const, path: [], message: `is not readable: ${reason}`, input };
    return { success: false, error: new z.ZodError([issue]) } as z.ZodSafeParseResult<z.output<S>>;
  }
}
