import { describe, expect, it } from "vitest";
import { commandHelp, defineCommand, parseCommandArgs } from "./command.js";
import { CliError } from "./errors.js";

const sample = defineCommand({
  name: "sample",
  summary: "does a sample thing",
  positionals: [
    { name: "name", description: "what to name it", required: true },
    { name: "dir", description: "where" },
  ],
  options: {
    template: { type: "string", valueName: "name", description: "which template" },
    force: { type: "boolean", description: "do it anyway" },
  },
  async run() {},
});

function usageError(words: string[]): CliError {
  try {
    parseCommandArgs(sample, words);
  } catch (error) {
    return error as CliError;
  }
  throw new Error("expected a usage error");
}

describe("parseCommandArgs", () => {
  it("reads positionals, string and boolean options", () => {
    expect(parseCommandArgs(sample, ["x", "--template", "deploys", "--force"])).toEqual({
      positionals: ["x"],
      options: { template: "deploys", force: true },
    });
    expect(parseCommandArgs(sample, ["x", "d", "--template=payments"])).toEqual({
      positionals: ["x", "d"],
      options: { template: "payments", force: false },
    });
  });

  it("turns every mistake into a one-line usage error (exit 2)", () => {
    expect(usageError(["x", "--frob"])).toMatchObject({
      code: 2,
      message: 'unknown option "--frob"',
      command: "sample",
    });
    expect(usageError(["x", "--template"])).toMatchObject({ code: 2, message: 'option "--template" needs a value' });
    expect(usageError([])).toMatchObject({ code: 2, message: "missing <name>" });
    expect(usageError(["a", "b", "c"])).toMatchObject({ code: 2, message: 'unexpected argument "c"' });
  });
});

describe("a variadic last positional", () => {
  const many = defineCommand({
    name: "many",
    summary: "takes files",
    positionals: [
      { name: "what", description: "what to do", required: true },
      { name: "file", description: "files", variadic: true },
    ],
    options: {},
    async run() {},
  });

  it("takes every remaining word, or none, and shows as <name> [file…] in help", () => {
    expect(parseCommandArgs(many, ["go", "a", "b", "c"]).positionals).toEqual(["go", "a", "b", "c"]);
    expect(parseCommandArgs(many, ["go"]).positionals).toEqual(["go"]);
    expect(commandHelp(many).split("\n")[0]).toBe("Usage: svckit many <what> [file…]");
  });
});

describe("commandHelp", () => {
  it("shows usage, arguments and options with --help", () => {
    expect(commandHelp(sample)).toBe(
      [
        "Usage: svckit sample <name> [dir] [options]",
        "",
        "does a sample thing",
        "",
        "Arguments:",
        "  name                    what to name it",
        "  dir                     where",
        "",
        "Options:",
        "  --template <name>       which template",
        "  --force                 do it anyway",
        "  --help                  show this help",
      ].join("\n"),
    );
  });
});
