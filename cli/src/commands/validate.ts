/**
 * `svckit validate [dir]`: check, then run `update()` (and optionally one tool) once.
 */
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { projectDir } from "../project.js";
import { validateExtension } from "../validate/validate.js";

export const validate = defineCommand({
  name: "validate",
  summary: "check the manifest and tools, run update() once and print its blips",
  details: [
    "Runs the extension in the app's sandbox against a mock app: no secrets, no sign-ins,",
    "preferences at their defaults, or as --prefs gives them (a password option from the",
    "environment variable SVC_PREF_<NAME>, never the command line). A required option left",
    "without a value fails validation. Every emitted blip is shown as the app would get it, with",
    "what the limits cut; a blip the app would drop fails validation, naming the field.",
    "With --tool, also runs that tool (values normalized against its fields) and checks its blocks.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    tool: { type: "string", valueName: "name", description: "also run this tool" },
    action: { type: "string", valueName: "id", description: "the tool action to run (default: its first)" },
    values: { type: "string", valueName: "json", description: "the tool's values, a JSON object keyed by field id" },
    prefs: {
      type: "string",
      valueName: "json",
      description: "option values, a JSON object keyed by option name (passwords: SVC_PREF_<NAME>)",
    },
  },
  examples: [
    "svckit validate",
    `svckit validate --prefs '{"apiUrl": "https://api.example.com"}'`,
    "SVC_PREF_APITOKEN=s3cret svckit validate",
    `svckit validate --tool uuid --action generate --values '{"count": 3}'`,
  ],
  async run({ positionals, options }, ctx) {
    if (options.tool === undefined && (options.action !== undefined || options.values !== undefined)) {
      throw CliError.usage("--action and --values go with --tool <name>", "validate");
    }
    const tool =
      options.tool === undefined ? undefined : { name: options.tool, action: options.action, values: options.values };
    await validateExtension(
      projectDir(ctx.cwd, positionals[0]),
      { tool, prefs: options.prefs, env: ctx.env },
      ctx.out,
      ctx.signal,
    );
  },
});
