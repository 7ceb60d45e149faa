/**
 * `svckit tool list` and `svckit tool run <extension-id>/<tool>`: the running app's tools from a
 * terminal or a script, through its local HTTP API (webhook.json read on every run).
 */
import { defineCommand, type Output } from "../command.js";
import { CliError } from "../errors.js";
import { supportFolder } from "../support-folder.js";
import { AppRefusal, AppTools, type AppTool } from "../tools/app-tools.js";
import { valuesFromFields } from "../tools/field-args.js";
import { formatBlocks } from "../tools/format-blocks.js";
import { escapeForDisplay } from "@svc/api";

const SUBCOMMANDS = ["list", "run"];

export const tool = defineCommand({
  name: "tool",
  summary: "list the running app's tools, or run one",
  details: [
    "list                          every tool: id, title, summary; (agents) when switched on for agents",
    "run <extension-id>/<tool>     runs one action (default: the tool's first) and prints its result",
    "",
    "Values come from --values (a JSON object keyed by field id) or from --field name=value, once",
    "per value: numbers and toggles (true/false) are typed by the tool's fields, a file field takes",
    "a path (relative to the current folder; repeat for more), pairs take \"name: value\".",
    "A file you name is the tool's to read during that run.",
    "Exit codes: 0 done, 1 the tool failed or the app is not running, 2 a wrong tool, action or value.",
  ],
  positionals: [
    { name: "list|run", description: "what to do", required: true },
    { name: "tool", description: "for run: <extension-id>/<tool>, as `svckit tool list` shows" },
  ],
  options: {
    action: { type: "string", valueName: "id", description: "the action to run (default: the tool's first)" },
    values: { type: "string", valueName: "json", description: "the values, a JSON object keyed by field id" },
    field: { type: "string", multiple: true, valueName: "name=value", description: "one value (repeatable)" },
    json: { type: "boolean", description: "print the app's JSON answer (for scripts)" },
  },
  examples: [
    "svckit tool list",
    `svckit tool run dev.svc.devtools/json --action minify --field 'input={ "a": 1 }'`,
    `svckit tool run dev.svc.devtools/jwt --values '{"token": "eyJhbGciOi…"}' --json`,
    "svckit tool run dev.svc.devtools/base64 --action encode-file --field file=./logo.png",
  ],
  async run({ positionals, options }, ctx) {
    const [sub, target] = positionals;
    if (!SUBCOMMANDS.includes(sub)) throw CliError.usage(`unknown subcommand "${sub}": use list or run`, "tool");
    const tools = new AppTools(supportFolder(ctx.env));
    if (sub === "list") {
      if (target !== undefined) throw CliError.usage(`unexpected argument "${target}"`, "tool");
      if (options.action !== undefined || options.values !== undefined || options.field.length > 0) {
        throw CliError.usage("--action, --values and --field go with run", "tool");
      }
      const list = await tools.list();
      if (options.json) ctx.out.info(JSON.stringify({ tools: list }, null, 2));
      else printList(list, ctx.out);
      return;
    }
    if (target === undefined || !/^[^/]+\/[^/]+$/.test(target)) {
      throw CliError.usage(`run needs <extension-id>/<tool>${target === undefined ? "" : `, got "${target}"`}`, "tool");
    }
    if (options.values !== undefined && options.field.length > 0) throw CliError.usage("use either --values or --field, not both", "tool");
    const spec = await tools.find(target);
    const values = options.values !== undefined ? parseValues(options.values) : valuesFromFields(spec, options.field, ctx.cwd);
    try {
      const answer = await tools.run(target, { ...(options.action === undefined ? {} : { action: options.action }), values });
      if (options.json) ctx.out.info(JSON.stringify(answer, null, 2));
      else for (const line of formatBlocks(answer.blocks, { color: ctx.color === true })) ctx.out.info(line);
    } catch (error) {
      if (error instanceof AppRefusal) throw refusalFor(spec, error);
      throw error;
    }
  },
});

function parseValues(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw CliError.usage(`--values is not JSON: ${(error as Error).message}`, "tool");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw CliError.usage("--values should be a JSON object keyed by field id", "tool");
  return parsed as Record<string, unknown>;
}

/** The app's refusal in the person's words: the tool's own message when it failed. */
function refusalFor(spec: AppTool, error: AppRefusal): CliError {
  const title = escapeForDisplay(spec.title);
  const reason = escapeForDisplay(error.reason);
  if (error.status === 502) return new CliError(`${title} failed: ${reason}`);
  if (error.status === 400 || error.status === 404) return CliError.usage(reason, "tool");
  return new CliError(reason);
}

function printList(list: readonly AppTool[], out: Output): void {
  if (list.length === 0) return out.info("the app has no tools");
  const width = Math.min(48, Math.max(...list.map((t) => escapeForDisplay(t.id).length)));
  let extension = "";
  for (const t of list) {
    if (t.extensionId !== extension) {
      extension = t.extensionId;
      out.info(`${escapeForDisplay(t.extensionTitle)} (${escapeForDisplay(t.extensionId)})`);
    }
    const summary = t.summary ? `: ${escapeForDisplay(t.summary, { max: 100 })}` : "";
    out.info(`  ${escapeForDisplay(t.id).padEnd(width)}  ${escapeForDisplay(t.title)}${summary}${t.agents ? "  (agents)" : ""}`);
  }
}
