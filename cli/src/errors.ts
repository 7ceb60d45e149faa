/**
 * The one way a svckit command reports an expected failure: throw a `CliError`. `main.ts`
 * prints its message (one or two lines for a person, never a stack) and exits with its code.
 */

/** Exit codes, documented in cli/README.md. */
export const EXIT = {
  /** Everything went as asked. */
  ok: 0,
  /** A problem was found: the build failed, the manifest or a tool is invalid, the app refused a payload. */
  problem: 1,
  /** The command line itself is wrong: unknown command or option, a missing argument. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An expected failure with the exit code it maps to.
 *
 * @example
 * throw new CliError("no package.json in /tmp/x: run svckit in an extension folder");
 * throw CliError.usage('unknown option "--frob"', "build");
 */
export class CliError extends Error {
  override readonly name = "CliError";

  constructor(
    message: string,
    readonly code: ExitCode = EXIT.problem,
    /** The command whose usage to point at, for usage errors. */
    readonly command?: string,
  ) {
    super(message);
  }

  /** A usage error (exit 2) that points the person at `svckit <command> --help`. */
  static usage(message: string, command?: string): CliError {
    return new CliError(message, EXIT.usage, command);
  }
}

/** True for a `CliError`, also across module copies (a bundled and an unbundled svckit). */
export function isCliError(error: unknown): error is CliError {
  return error instanceof Error && error.name === "CliError" && typeof (error as CliError).code === "number";
}
