/**
 * `svckit validate --tool <name>`: one tool run in the sandbox, with its values normalized as
 * the runtime does and its result checked and cut as the runtime does.
 */
import { normalizeToolValues, processToolResult, type ToolSpec } from "@svc/api";
import type { CallContext, SandboxHandle } from "@svc/sandbox";
import type { Output } from "../command.js";
import { CliError } from "../errors.js";
import { formatJson } from "../format-json.js";

export interface ToolRequest {
  name: string;
  action?: string;
  /** The `--values` JSON as given. */
  values?: string;
}

/**
 * Picks the tool and action and reads the values, before anything runs.
 *
 * @throws CliError (usage) for an unknown tool or action, or values that are not JSON.
 */
export function planToolRun(tools: ToolSpec[], request: ToolRequest): { spec: ToolSpec; action: string; raw: unknown } {
  const spec = tools.find((tool) => tool.id === request.name);
  if (!spec) {
    const known = tools.length > 0 ? `its tools are ${tools.map((t) => `"${t.id}"`).join(", ")}` : "it has no tools";
    throw CliError.usage(`the extension has no tool "${request.name}": ${known}`, "validate");
  }
  const actions = spec.actions.map((a) => a.id);
  if (request.action !== undefined && actions.length > 0 && !actions.includes(request.action)) {
    throw CliError.usage(
      `tool "${spec.id}" has no action "${request.action}": its actions are ${actions.map((a) => `"${a}"`).join(", ")}`,
      "validate",
    );
  }
  let raw: unknown = {};
  if (request.values !== undefined) {
    try {
      raw = JSON.parse(request.values);
    } catch (error) {
      throw CliError.usage(`--values is not JSON: ${(error as Error).message}`, "validate");
    }
  }
  // The first action is what Return runs (SPEC.md "Tool spec").
  return { spec, action: request.action ?? actions[0] ?? "run", raw };
}

/**
 * Runs the tool and prints the values it got and the blocks it returned. Returns the problems.
 */
export async function runTool(
  sandbox: SandboxHandle,
  plan: { spec: ToolSpec; action: string; raw: unknown },
  ctx: CallContext,
  signal: AbortSignal,
  out: Output,
): Promise<string[]> {
  const { spec, action, raw } = plan;
  const values = normalizeToolValues(spec, raw) as Record<string, unknown>;
  out.info(`tool ${spec.id}, action "${action}", values ${JSON.stringify(values)}`);
  for (const note of valueNotes(raw, values)) out.warn(`  ${note}`);
  const files = spec.fields.filter((f) => f.type === "file").flatMap((f) => values[f.id] as string[]);
  let result: unknown;
  try {
    result = await sandbox.invoke({ kind: "tool.run", ctx, tool: spec.id, action, values, files }, { signal });
  } catch (error) {
    // The app shows a throw as a critical status with the error's message.
    const line = `tool ${spec.id} failed: ${(error as Error).message.split("\n")[0]}`;
    out.warn(line);
    return [line];
  }
  const processed = processToolResult(result, spec.title);
  if (!processed.ok) {
    const line = `tool ${spec.id}: ${processed.error} ${processed.details}`;
    out.warn(line);
    return [line];
  }
  out.info(
    `tool ${spec.id} returned ${processed.blocks.length === 1 ? "1 block" : `${processed.blocks.length} blocks`}:`,
  );
  for (const line of formatJson(processed.blocks).split("\n")) out.info(`  ${line}`);
  if (processed.truncated.length > 0) out.info(`  cut to the limits: ${processed.truncated.join(", ")}`);
  return [];
}

/** What normalization changed in the given values: keys dropped, values replaced. */
function valueNotes(raw: unknown, values: Record<string, unknown>): string[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return raw === undefined
      ? []
      : ["--values should be a JSON object keyed by field id; every field took its default"];
  }
  const notes: string[] = [];
  for (const [key, given] of Object.entries(raw)) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) notes.push(`"${key}" is not a field of this tool: dropped`);
    else if (JSON.stringify(given) !== JSON.stringify(values[key])) {
      notes.push(`"${key}": ${JSON.stringify(given)} became ${JSON.stringify(values[key])}`);
    }
  }
  return notes;
}
