/**
 * The kinds of field a forwarded op's arguments may have (op-table.ts), each with its check. Eight
 * small predicates rather than zod: every sandbox thread loads this module, and zod with
 * `@svc/api` cost each thread ~85 ms of start-up CPU and ~15 MB (bench/README.md, launch.mjs). The
 * runtime validates what these fields carry (payload schema, preference kinds) with the SDK's zod
 * schemas, as before.
 *
 * A pure module (no Node; only the SDK's zod-free rules), so the guest's tsconfig can read the
 * table's types.
 */
import { isSecretName, SECRET_NAME_RULE } from "@svc/api/secret-name";

/** One field: its TypeScript type `T`, whether it may be missing, and its check. */
export interface Field<T, Optional extends boolean = boolean> {
  /** `undefined` (or a missing key) is allowed: the key is then left out. */
  readonly optional: Optional;
  /** `null` is a value (setPreference(name, null) clears); elsewhere `null` counts as missing. */
  readonly keepsNull: boolean;
  /** The end of `<op>: "<key>" should be …` when `value` is refused; undefined when it is fine. */
  problem(value: unknown): string | undefined;
  /** Never set: carries the field's type. */
  readonly type?: T;
}

/** Longest string a forwarded op's field may hold (a log message is cut instead: MAX_LOG_CHARS). */
export const MAX_FORWARDED_STRING = 64 * 1024;

function field<T, Optional extends boolean>(
  optional: Optional,
  problem: (value: unknown) => string | undefined,
  keepsNull = false,
): Field<T, Optional> {
  return { optional, keepsNull, problem };
}

const stringProblem = (value: unknown, max: number) =>
  typeof value !== "string" ? "a string" : value.length > max ? `at most ${max} characters` : undefined;

/** A string of at most MAX_FORWARDED_STRING characters. */
export const text = field<string, false>(false, (value) => stringProblem(value, MAX_FORWARDED_STRING));
export const optionalText = field<string, true>(true, (value) => stringProblem(value, MAX_FORWARDED_STRING));
/** Any string: a log message, cut to MAX_LOG_CHARS afterwards instead of refused. */
export const anyLength = field<string, false>(false, (value) => stringProblem(value, Infinity));
/**
 * A secret's name (SPEC.md "Secret names"), checked here in full, so a bad one is refused at the
 * call, with the caller's stack, and never reaches the keychain (the guest keeps no stack for
 * `secrets.get`/`delete`: guest/bridge.ts).
 */
export const secretName = field<string, false>(false, (value) => (isSecretName(value) ? undefined : SECRET_NAME_RULE));
export const finiteNumber = field<number, true>(true, (value) =>
  typeof value === "number" && Number.isFinite(value) ? undefined : "a finite number",
);
export const integer = field<number, true>(true, (value) => (Number.isInteger(value) ? undefined : "an integer"));
/** A plain object (not an array, not null). */
export const anObject = field<object, false>(false, (value) =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : "an object",
);
/** Any JSON value, `null` included (it clears an option, or is the answer). */
export const anything = field<unknown, true>(true, () => undefined, true);
/** One of `values`. */
export const oneOf = <const Values extends readonly string[]>(values: Values) =>
  field<Values[number], false>(false, (value) =>
    values.includes(value as string) ? undefined : `one of ${values.join(", ")}`,
  );

type Fields = Record<string, Field<unknown>>;
type TypeOf<F> = F extends Field<infer T> ? T : never;
/** The arguments `fields` describe: a key for each field, optional where the field is. */
export type ArgsOf<F extends Fields> = {
  [K in keyof F as F[K] extends Field<unknown, true> ? never : K]: TypeOf<F[K]>;
} & {
  [K in keyof F as F[K] extends Field<unknown, true> ? K : never]?: TypeOf<F[K]>;
};
