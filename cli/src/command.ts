/**
 * How a svckit command is declared, parsed and described. A command is data (its arguments,
 * options and help) plus a `run` function that returns or throws a `CliError`; it never
 * touches `process` — everything it may use arrives in its `CommandContext`.
 */
import type { Readable, Writable } from "node:stream";
import { parseArgs } from "node:util";
import { CliError } from "./errors.js";

/** Where a command's words for a person go. `main.ts` wires these to stdout and stderr. */
export interface Output {
  /** A line of ordinary output (stdout). */
  info(line: string): void;
  /** A warning or a problem that does not stop the command (stderr). */
  warn(line: string): void;
}

/** Everything a command may use from its surroundings, so tests can run it in-process. */
export interface CommandContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  out: Output;
  /** Aborted when the person presses Ctrl-C; long-running commands (`dev`) stop on it. */
  signal: AbortSignal;
  /** Reads standard input to the end (for `svckit send -`). */
  readStdin(): Promise<string>;
  /** True when `info` lines go to a terminal that shows colours (and NO_COLOR is unset). */
  color?: boolean;
  /** The process's own standard streams, for a command that speaks a protocol on them (`mcp`). */
  streams?: { stdin: Readable; stdout: Writable };
  /** How to run this svckit again, for hints (`svckit`, or `node /path/to/svckit.js`). Default `svckit`. */
  invokedAs?: string;
}

export interface OptionDef {
  type: "string" | "boolean";
  description: string;
  /** A string option that may be given several times; its value is the list, in order. */
  multiple?: boolean;
  /** Shown in help: `--template <name>`. */
  valueName?: string;
}

export interface PositionalDef {
  name: string;
  description: string;
  required?: boolean;
  /** The last positional only: takes every remaining word (`<file>…`). */
  variadic?: boolean;
}

export type OptionValues<O extends Record<string, OptionDef>> = {
  [K in keyof O]: O[K]["type"] extends "boolean"
    ? boolean
    : O[K]["multiple"] extends true
      ? string[]
      : string | undefined;
};

export interface CommandDef<O extends Record<string, OptionDef> = Record<string, OptionDef>> {
  name: string;
  /** One line, shown in `svckit --help`. */
  summary: string;
  /** A few lines more, shown in `svckit <name> --help`. */
  details?: string[];
  positionals: PositionalDef[];
  options: O;
  examples?: string[];
  run(input: { positionals: string[]; options: OptionValues<O> }, ctx: CommandContext): Promise<void>;
}

/**
 * A typed identity function: it exists so a command's `run` sees its own options' types.
 *
 * @example
 * export const hello = defineCommand({
 *   name: "hello", summary: "says hello", positionals: [], options: { loud: { type: "boolean", description: "shout" } },
 *   async run({ options }, ctx) { ctx.out.info(options.loud ? "HELLO" : "hello"); },
 * });
 */
export function defineCommand<O extends Record<string, OptionDef>>(def: CommandDef<O>): CommandDef<O> {
  return def;
}

/** True when the words ask for help rather than for the command. */
export function wantsHelp(words: readonly string[]): boolean {
  return words.includes("--help") || words.includes("-h");
}

/**
 * Parses a command's words against its declaration.
 *
 * @example
 * parseCommandArgs(build, ["./ext"]) // { positionals: ["./ext"], options: {} }
 * @throws CliError (usage) naming the unknown option, the missing value or argument.
 */
export function parseCommandArgs<O extends Record<string, OptionDef>>(
  def: CommandDef<O>,
  words: string[],
): { positionals: string[]; options: OptionValues<O> } {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {};
  for (const [name, option] of Object.entries(def.options))
    options[name] = { type: option.type, ...(option.multiple ? { multiple: true } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: words, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw CliError.usage(describeParseError(error), def.name);
  }
  const positionals = parsed.positionals;
  const required = def.positionals.filter((p) => p.required);
  if (positionals.length < required.length) {
    throw CliError.usage(`missing <${required[positionals.length].name}>`, def.name);
  }
  if (positionals.length > def.positionals.length && !def.positionals.at(-1)?.variadic) {
    throw CliError.usage(`unexpected argument "${positionals[def.positionals.length]}"`, def.name);
  }
  const values: Record<string, string | string[] | boolean | undefined> = {};
  for (const [name, option] of Object.entries(def.options)) {
    const value = parsed.values[name];
    if (option.type === "boolean") values[name] = value === true;
    else if (option.multiple) values[name] = (value as string[] | undefined) ?? [];
    else values[name] = value as string | undefined;
  }
  return { positionals, options: values as OptionValues<O> };
}

/** node:util's parse errors, reworded as one line without Node's internals. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) return `unknown option "${option}"`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    return message.includes("argument missing")
      ? `option "${option}" needs a value`
      : `option "${option}" takes no value`;
  }
  return message.split("\n")[0];
}

/** The full help text of one command. */
export function commandHelp(def: CommandDef): string {
  const usage = [`svckit ${def.name}`];
  for (const p of def.positionals) {
    const name = p.variadic ? `${p.name}…` : p.name;
    usage.push(p.required ? `<${name}>` : `[${name}]`);
  }
  if (Object.keys(def.options).length > 0) usage.push("[options]");
  const lines = [`Usage: ${usage.join(" ")}`, "", def.summary];
  if (def.details) lines.push("", ...def.details);
  if (def.positionals.length > 0) {
    lines.push("", "Arguments:");
    for (const p of def.positionals) lines.push(row(p.name, p.description));
  }
  lines.push("", "Options:");
  for (const [name, option] of Object.entries(def.options)) {
    const flag = option.type === "string" ? `--${name} <${option.valueName ?? "value"}>` : `--${name}`;
    lines.push(row(flag, option.description));
  }
  lines.push(row("--help", "show this help"));
  if (def.examples && def.examples.length > 0) {
    lines.push("", "Examples:", ...def.examples.map((e) => `  ${e}`));
  }
  return lines.join("\n");
}

/** One aligned row of a help table. */
export function row(left: string, right: string): string {
  return `  ${left.padEnd(24)}${left.length >= 24 ? " " : ""}${right}`;
}
