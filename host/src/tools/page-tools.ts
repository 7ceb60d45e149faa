/**
 * Tools for the notch page (the UI server's `/api/tools`): the same `ToolRunner` as `/v1`, with
 * an `image` block's picture inlined as a `data:` URL, since the page's CSP takes `img-src 'self'
 * data:` and an `<img>` cannot send the session header. The runner has already fenced the path
 * (the extension's data folder, or a file the person gave in that run); nothing else is read.
 *
 * Files reach the page's tools two ways: a typed absolute path in a file field (the person's
 * typing, as in a plain browser), or `{"handle"}` for a file dropped or picked in the desktop
 * shell, which the host registered (`GivenFiles`). Drops take handles only: the page never holds
 * a dropped file's path (UI.md "File paths").
 */
import { readFile, stat } from "node:fs/promises";
import { MAX_INLINE_IMAGE_BYTES, imageMediaType, type Block } from "@svc/api";
import { isHandleRef, type GivenFiles } from "./given-files.js";
import { ToolError } from "./tool-error.js";
import type { ListedTool, ToolRunner } from "./tool-runner.js";

/** A block as the page gets it: an image may carry its picture. */
export type PageBlock = Block | (Extract<Block, { type: "image" }> & { dataUrl?: string });

/** A block for the page: an image gets its picture as a data URL when it can be shown inline. */
export async function inlinePicture(block: Block): Promise<PageBlock> {
  if (block.type !== "image") return block;
  const type = imageMediaType(block.path);
  if (!type) return block;
  try {
    if ((await stat(block.path)).size > MAX_INLINE_IMAGE_BYTES) return block;
    return { ...block, dataUrl: `data:${type};base64,${(await readFile(block.path)).toString("base64")}` };
  } catch {
    return block;
  }
}

function checkRunId(runId: unknown): string {
  if (typeof runId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(runId))
    throw new ToolError("invalid", '"runId" should be 1–64 letters, digits, - or _');
  return runId;
}

/** `{tool: "<extension-id>/<name>", …rest}` → the two halves of the id and the rest. */
function split(body: Record<string, unknown>): [string, string, Record<string, unknown>] {
  const { tool, ...rest } = body;
  const id = typeof tool === "string" ? tool : "";
  const at = id.indexOf("/");
  return [id.slice(0, Math.max(0, at)), id.slice(at + 1), rest];
}

/**
 * A run's values with each `{handle}` in a file field replaced by the path it stands for; typed
 * paths and everything else stay as sent (the runner checks them).
 */
function resolveFileValues(runner: ToolRunner, given: GivenFiles, toolId: string, values: unknown): unknown {
  const tool = runner.list().find((t) => t.id === toolId);
  if (!tool || typeof values !== "object" || values === null || Array.isArray(values)) return values;
  const resolved: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  for (const field of tool.fields) {
    const value = resolved[field.id];
    if (field.type !== "file" || !Array.isArray(value)) continue;
    resolved[field.id] = value.map((item, i) =>
      isHandleRef(item) ? given.pathOf(item.handle, `values.${field.id}[${i}].handle`) : item,
    );
  }
  return resolved;
}

/**
 * @example
 * const tools = pageTools(host.tools, givenFiles);
 * tools.list(); await tools.run({ tool: "dev.svc.devtools/json", action: "format", values: { input: "[1]" } });
 */
export function pageTools(runner: ToolRunner, given: GivenFiles) {
  return {
    list: (): ListedTool[] => runner.list(),
    /** `body`: `{tool: "<extension-id>/<name>", action?, values?}`. Throws `ToolError`. */
    async run(body: Record<string, unknown>): Promise<{ blocks: PageBlock[] }> {
      const [extensionId, name, { runId, ...request }] = split(body);
      if (request.values !== undefined)
        request.values = resolveFileValues(runner, given, `${extensionId}/${name}`, request.values);
      const { blocks } = await runner.run(
        extensionId,
        name,
        request,
        "person",
        runId === undefined ? undefined : checkRunId(runId),
      );
      return { blocks: await Promise.all(blocks.map(inlinePicture)) };
    },
    /** `body`: `{tool, runId}`: the notch's Cancel aborts that run's `ctx.signal`. */
    async cancel(body: Record<string, unknown>): Promise<{ cancelled: boolean }> {
      const [extensionId, , { runId }] = split(body);
      return { cancelled: await runner.cancel(extensionId, checkRunId(runId)) };
    },
    /** `body`: `{tool, action, handles}`: the files the person dropped, registered by the desktop shell. */
    drop(body: Record<string, unknown>) {
      const [extensionId, name, { handles, ...request }] = split(body);
      if (!Array.isArray(handles))
        throw new ToolError(
          "invalid",
          '"handles" should be a list of file handles from the svc app (drops work in the svc app, not in a browser)',
        );
      return runner.drop(
        extensionId,
        name,
        { ...request, files: handles.map((handle, i) => given.pathOf(handle, `handles[${i}]`)) },
        "person",
      );
    },
    /** `body`: `{tool, enabled}`: the person's switch for agents (Settings). */
    async agents(body: Record<string, unknown>): Promise<{ id: string; agents: boolean }> {
      const [extensionId, name, request] = split(body);
      if (typeof request.enabled !== "boolean") throw new ToolError("invalid", '"enabled" should be true or false');
      const tool = await runner.setAgents(extensionId, name, request.enabled);
      return { id: tool.id, agents: tool.agents };
    },
  };
}

export type PageTools = ReturnType<typeof pageTools>;
