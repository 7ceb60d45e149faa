/**
 * `svckit tool list`, `svckit tool run <extension-id>/<tool>` and `svckit tool drop
 * <extension-id>/<tool> <file>…`: the running app's tools from a terminal or a script, through
 * its local HTTP API (webhook.json read on every run). A path typed here is the person's grant.
 */
import { resolve } from "node:path";
import { defineCommand, type CommandContext, type Output } from "../command.js";
import { CliError } from "../errors.js";
import { supportFolder } from "../support-folder.js";
import { AppRefusal, AppTools, type AppTool, type DropAnswer } from "../tools/app-tools.js";
import { valuesFromFields } from "../tools/field-args.js";
import { formatBlocks } from "../tools/format-blocks.js";
import { escapeForDisplay } from "@svc/api";

const SUBCOMMANDS = ["list", "run", "drop"];

export const tool = defineCommand({
  name: "tool",
  summary: "list the running app's tools, run one, or drop files on one",
  details: [
    "list                          every tool: id, title, summary; (agents) when switched on for agents",
    "run <extension-id>/<tool>     runs one action (default: the tool's first) and prints its result",
    "drop <extension-id>/<tool> <file>…",
    "                              hands the files to a drop action (--action; default: the tool's only",
    "                              one), as dropping them on the tool in the notch does",
    "",
    "Values come from --values (a JSON object keyed by field id) or from --field name=value, once",
    "per value: numbers and toggles (true/false) are typed by the tool's fields, a file field takes",
    'a path (relative to the current folder; repeat for more), pairs take "name: value".',
    "A file you name (with --field or to drop) is the tool's to read during that run.",
    "Exit codes: 0 done, 1 the tool failed or the app is not running, 2 a wrong tool, action or value.",
  ],
  positionals: [
    { name: "list|run|drop", description: "what to do", required: true },
    { name: "tool", description: "for run and drop: <extension-id>/<tool>, as `svckit tool list` shows" },
    { name: "file", description: "for drop: the files (relative to the current folder)", variadic: true },
  ],
  options: {
    action: {
      type: "string",
      valueName: "id",
      description: "the action to run or the drop action (default: the tool's first; for drop, its only one)",
    },
    values: { type: "string", valueName: "json", description: "the values, a JSON object keyed by field id" },
    field: { type: "string", multiple: true, valueName: "name=value", description: "one value (repeatable)" },
    json: { type: "boolean", description: "print the app's JSON answer (for scripts)" },
  },
  examples: [
    "svckit tool list",
    `svckit tool run dev.svc.devtools/json --action minify --field 'input={ "a": 1 }'`,
    `svckit tool run dev.svc.devtools/jwt --values '{"token": "eyJhbGciOi…"}' --json`,
    "svckit tool run dev.svc.devtools/base64 --action encode-file --field file=./logo.png",
    "svckit tool drop dev.svc.devtools/hash ./a.pdf ./b.pdf",
  ],
  async run({ positionals, options }, ctx) {
    const [sub, target, ...files] = positionals;
    if (!SUBCOMMANDS.includes(sub)) throw CliError.usage(`unknown subcommand "${sub}": use list, run or drop`, "tool");
    if (sub !== "drop" && files.length > 0) throw CliError.usage(`unexpected argument "${files[0]}"`, "tool");
    const tools = new AppTools(supportFolder(ctx.env));
    if (sub === "drop") return drop(tools, target, files, options, ctx);
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
    checkTarget("run", target);
    if (options.values !== undefined && options.field.length > 0)
      throw CliError.usage("use either --values or --field, not both", "tool");
    const spec = await tools.find(target);
    const values =
      options.values !== undefined ? parseValues(options.values) : valuesFromFields(spec, options.field, ctx.cwd);
    try {
      const answer = await tools.run(target, {
        ...(options.action === undefined ? {} : { action: options.action }),
        values,
      });
      if (options.json) ctx.out.info(JSON.stringify(answer, null, 2));
      else for (const line of formatBlocks(answer.blocks, { color: ctx.color === true })) ctx.out.info(line);
    } catch (error) {
      if (error instanceof AppRefusal) throw refusalFor(spec, error);
      throw error;
    }
  },
});

function checkTarget(sub: string, target: string | undefined): asserts target is string {
  if (target === undefined || !/^[^/]+\/[^/]+$/.test(target)) {
    throw CliError.usage(
      `${sub} needs <extension-id>/<tool>${target === undefined ? "" : `, got "${target}"`}`,
      "tool",
    );
  }
}

/** `svckit tool drop`: the files, as typed by the person, handed to one drop action. */
async function drop(
  tools: AppTools,
  target: string | undefined,
  files: string[],
  options: { action?: string; values?: string; field: string[]; json: boolean },
  ctx: CommandContext,
): Promise<void> {
  checkTarget("drop", target);
  if (options.values !== undefined || options.field.length > 0)
    throw CliError.usage("--values and --field go with run; drop takes files", "tool");
  const spec = await tools.find(target);
  const title = escapeForDisplay(spec.title);
  const ids = spec.dropActions.map((a) => a.id);
  if (ids.length === 0)
    throw CliError.usage(
      `${title} takes no dropped files (it has no drop actions): use svckit tool run ${target}`,
      "tool",
    );
  if (options.action === undefined && ids.length > 1) {
    throw CliError.usage(
      `${title} has ${ids.length} drop actions: choose one with --action (${ids.map((id) => escapeForDisplay(id)).join(", ")})`,
      "tool",
    );
  }
  if (files.length === 0) throw CliError.usage(`drop needs files: svckit tool drop ${target} <file>…`, "tool");
  const action = options.action ?? ids[0];
  try {
    const answer = await tools.drop(target, { action, files: files.map((file) => resolve(ctx.cwd, file)) });
    if (options.json) ctx.out.info(JSON.stringify(answer, null, 2));
    else for (const line of formatDrop(answer)) ctx.out.info(line);
  } catch (error) {
    if (error instanceof AppRefusal) throw refusalFor(spec, error);
    throw error;
  }
}

/**
 * A drop's answer for a person: the message, the files it made, the text it would copy.
 *
 * @example
 * formatDrop({ message: "Hashed 2 files", outputs: ["/…/hashes.txt"] }) // ["✔ Hashed 2 files", "  /…/hashes.txt"]
 */
export function formatDrop(answer: DropAnswer): string[] {
  const lines = [`✔ ${escapeForDisplay(answer.message ?? "", { max: 2000 })}`];
  for (const path of answer.outputs ?? []) lines.push(`  ${escapeForDisplay(path)}`);
  if (answer.copiedText !== undefined)
    lines.push(`text to copy: ${escapeForDisplay(answer.copiedText, { max: 2000 })}`);
  return lines;
}

function parseValues(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw CliError.usage(`--values is not JSON: ${(error as Error).message}`, "tool");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw CliError.usage("--values should be a JSON object keyed by field id", "tool");
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
    out.info(
      `  ${escapeForDisplay(t.id).padEnd(width)}  ${escapeForDisplay(t.title)}${summary}${t.agents ? "  (agents)" : ""}`,
    );
  }
}
