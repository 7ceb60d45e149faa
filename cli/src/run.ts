/**
 * svckit's dispatcher: picks the command, parses its words, runs it, and turns whatever it
 * threw into lines for a person and an exit code. `main.ts` gives it the real process; tests
 * give it a temporary folder and collect the output.
 */
import { escapeForDisplay } from "@svc/api";
import { svckitVersion } from "./version.js";
import { type CommandContext, type CommandDef, commandHelp, parseCommandArgs, row, wantsHelp } from "./command.js";
import { EXIT, type ExitCode, isCliError } from "./errors.js";
import { commands } from "./commands/index.js";

/** The top-level help: every command with its one-line summary, and the exit codes. */
export function mainHelp(): string {
  return [
    "Usage: svckit <command> [options]",
    "",
    "Build, develop, validate and pack svc extensions.",
    "",
    "Commands:",
    ...commands.map((c) => row(c.name, c.summary)),
    "",
    "Run `svckit <command> --help` for a command's arguments and options.",
    "",
    "Exit codes: 0 ok, 1 a problem was found, 2 the command line is wrong.",
    "Set SVC_DEBUG=1 to see the details of an unexpected error.",
  ].join("\n");
}

/**
 * Runs svckit with the given words (what follows `svckit` on the command line).
 *
 * @example
 * const code = await runCli(["build", "./my-ext"], ctx); // 0 when the build succeeded
 */
export async function runCli(words: string[], ctx: CommandContext): Promise<ExitCode> {
  const [name, ...rest] = words;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    ctx.out.info(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    ctx.out.info(svckitVersion);
    return EXIT.ok;
  }
  const command = commands.find((c) => c.name === name) as CommandDef | undefined;
  if (!command) {
    ctx.out.warn(`svckit: unknown command "${name}"`);
    ctx.out.warn("Run `svckit --help` to see the commands.");
    return EXIT.usage;
  }
  if (wantsHelp(rest)) {
    ctx.out.info(commandHelp(command));
    return EXIT.ok;
  }
  try {
    await command.run(parseCommandArgs(command, rest), ctx);
    return EXIT.ok;
  } catch (error) {
    return report(error, ctx);
  }
}

export { svckitVersion } from "./version.js";

/**
 * Says a failure. Its text can quote a stranger (a package's or a manifest's text, an address,
 * the app's answer): each line is made inert by the display rule, so no escape sequence reaches
 * the terminal.
 */
function report(error: unknown, ctx: CommandContext): ExitCode {
  const warn = (line: string) => ctx.out.warn(escapeForDisplay(line));
  if (isCliError(error)) {
    for (const line of error.message.split("\n")) warn(line);
    if (error.code === EXIT.usage) {
      ctx.out.warn(`Run \`svckit ${error.command ? `${error.command} ` : ""}--help\` for usage.`);
    }
    return error.code;
  }
  const message = error instanceof Error ? error.message : String(error);
  warn(`svckit: unexpected error: ${message.split("\n")[0]}`);
  if (ctx.env.SVC_DEBUG) {
    ctx.out.warn(
      escapeForDisplay(error instanceof Error && error.stack ? error.stack : String(error), { multiline: true }),
    );
  } else {
    ctx.out.warn("Run with SVC_DEBUG=1 for details.");
  }
  return EXIT.problem;
}
