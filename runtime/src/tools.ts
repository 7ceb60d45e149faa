/**
 * `tool.run` and `tool.drop` (SPEC "Tool run flow"): the extension is loaded without its blip
 * side when needed (concurrent runs share one load), values are normalized against the spec,
 * the guest's signal is aborted at 30 s and the runtime gives up at 32 s, the result is checked
 * and cut by the SDK, and every returned file path must pass the fence.
 */
import { normalizeToolValues, processDropResult, processToolResult, type Block, type ToolSpec } from "@svc/api";
import type { RuntimeConfig } from "./config.js";
import type { ExtensionSlot, Live } from "./extension-slot.js";
import { ErrorCodes, ResponseError } from "./protocol/index.js";
import { fenceBlocks, fencePaths, ToolPathFence } from "./tool-paths.js";

function findTool(slot: ExtensionSlot, live: Live, name: string): ToolSpec {
  const spec = live.tools.byName.get(name);
  if (spec) return spec;
  const known = [...live.tools.byName.keys()];
  const list = known.length ? `its tools are ${known.map((n) => `"${n}"`).join(", ")}` : "it has no valid tools";
  throw new ResponseError(ErrorCodes.UnknownTool, `${slot.id} has no tool "${name}": ${list}`);
}

/** The files the person gave in this run: every file field's paths. */
function givenFiles(spec: ToolSpec, values: Record<string, unknown>): string[] {
  return spec.fields.filter((f) => f.type === "file").flatMap((f) => (values[f.id] as string[] | undefined) ?? []);
}

/** Logs a returned path the fence dropped. */
function droppedBy(slot: ExtensionSlot, title: string) {
  return (reason: string) => slot.log("warn", `${title}: dropped a returned file: ${reason}`);
}

function timing(config: RuntimeConfig, what: string, cancel?: AbortSignal) {
  return {
    abortMs: config.toolAbortMs,
    giveUpMs: config.toolGiveUpMs,
    failCode: ErrorCodes.ToolFailed,
    what,
    ...(cancel ? { cancel } : {}),
  };
}

/**
 * Tool runs under way that named a `runId`, so `tool.cancel` can abort their `ctx.signal`.
 *
 * @example
 * const runs = new CancellableRuns();
 * const signal = runs.begin("com.example.dev", "r-1"); // … runs.cancel("com.example.dev", "r-1") // true
 */
export class CancellableRuns {
  private readonly runs = new Map<string, AbortController>();

  begin(extensionId: string, runId: string): AbortSignal {
    const controller = new AbortController();
    this.runs.set(`${extensionId}\n${runId}`, controller);
    return controller.signal;
  }

  end(extensionId: string, runId: string, signal: AbortSignal): void {
    const key = `${extensionId}\n${runId}`;
    if (this.runs.get(key)?.signal === signal) this.runs.delete(key);
  }

  /** False when no run by that id is under way (finished, or never started). */
  cancel(extensionId: string, runId: string): boolean {
    const controller = this.runs.get(`${extensionId}\n${runId}`);
    if (!controller) return false;
    controller.abort();
    return true;
  }
}

/**
 * @example
 * const { blocks } = await runTool(slot, config, { tool: "b64", action: "encode", values: { input: "hi" } });
 */
export async function runTool(
  slot: ExtensionSlot,
  config: RuntimeConfig,
  params: { tool: string; action: string; values: Record<string, unknown>; runId?: string },
  runs?: CancellableRuns,
): Promise<{ blocks: Block[] }> {
  const cancel = params.runId !== undefined ? runs?.begin(slot.id, params.runId) : undefined;
  try {
    return await runToolOnce(slot, config, params, cancel);
  } finally {
    if (cancel && params.runId !== undefined) runs?.end(slot.id, params.runId, cancel);
  }
}

async function runToolOnce(
  slot: ExtensionSlot,
  config: RuntimeConfig,
  params: { tool: string; action: string; values: Record<string, unknown> },
  cancel: AbortSignal | undefined,
): Promise<{ blocks: Block[] }> {
  const live = await slot.ensureLive();
  const spec = findTool(slot, live, params.tool);
  const values = normalizeToolValues(spec, params.values) as Record<string, unknown>;
  const files = givenFiles(spec, values);
  const raw = await slot.call(
    live,
    { kind: "tool.run", ctx: slot.callContext(), tool: params.tool, action: params.action, values, files },
    timing(config, `tool "${params.tool}"`, cancel),
  );
  const processed = processToolResult(raw, spec.title);
  if (!processed.ok) {
    slot.log("error", `tool "${params.tool}": ${processed.details}`);
    throw new ResponseError(ErrorCodes.ToolFailed, processed.error);
  }
  const fence = await ToolPathFence.create(slot.dataDir, files);
  return { blocks: await fenceBlocks(fence, processed.blocks, droppedBy(slot, spec.title)) };
}

/**
 * @example
 * const result = await dropOnTool(slot, config, { tool: "shrink", action: "png", files: ["/Users/me/a.png"] });
 */
export async function dropOnTool(
  slot: ExtensionSlot,
  config: RuntimeConfig,
  params: { tool: string; action: string; files: string[] },
): Promise<{ message: string; outputs: string[]; copiedText?: string }> {
  const live = await slot.ensureLive();
  const spec = findTool(slot, live, params.tool);
  const dropAction = spec.dropActions.find((a) => a.id === params.action);
  if (!dropAction) {
    const ids = spec.dropActions.map((a) => `"${a.id}"`).join(", ") || "none";
    throw new ResponseError(
      ErrorCodes.UnknownTool,
      `tool "${params.tool}" has no drop action "${params.action}" (its drop actions: ${ids})`,
    );
  }
  if (params.files.length < dropAction.minimumFiles) {
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `drop action "${params.action}" of tool "${params.tool}" needs at least ${dropAction.minimumFiles} files; got ${params.files.length}`,
    );
  }
  const raw = await slot.call(
    live,
    { kind: "tool.drop", ctx: slot.callContext(), tool: params.tool, action: params.action, files: params.files },
    timing(config, `drop on tool "${params.tool}"`),
  );
  const processed = processDropResult(raw, spec.title);
  if (!processed.ok) {
    slot.log("error", `tool "${params.tool}" drop: ${processed.details}`);
    throw new ResponseError(ErrorCodes.ToolFailed, processed.error);
  }
  const fence = await ToolPathFence.create(slot.dataDir, params.files);
  const outputs = await fencePaths(fence, processed.result.outputs, droppedBy(slot, spec.title));
  return { ...processed.result, outputs };
}
