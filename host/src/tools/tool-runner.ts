/**
 * The host's tools: the list (from `dist/tools.json` until the runtime reports the loaded code's
 * own specs), runs and drops sent to the runtime, and the host's second check of every file
 * path a tool hands back (SPEC.md Limits, permission rule 5: "the runtime enforces this and the
 * host checks again"). The HTTP routes, the UI server and `svckit mcp` (through HTTP) all go
 * through here, so each rule lives once.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Block, ToolSpec } from "@svc/api";
import type { AppLogLevel } from "../display/index.js";
import {
  ErrorCodes,
  ResponseError,
  ToolCancel,
  ToolDrop,
  ToolPathFence,
  ToolRun,
  fenceBlocks,
  fencePaths,
  type RequestType,
  type SendOptions,
} from "@svc/runtime";
import { valuesText, type AgentFiles } from "./agent-files.js";
import type { AgentSwitches } from "./agent-switches.js";
import { checkGivenFiles } from "./given-files.js";
import { ToolError } from "./tool-error.js";
import { fileValues, readDropRequest, readRunRequest } from "./tool-request.js";

/** SPEC.md Limits: the host gives up on a tool run at 35 s. */
export const HOST_TOOL_TIMEOUT_MS = 35_000;

/** One extension's tools as the host knows them now. */
export interface ExtensionTools {
  id: string;
  title?: string;
  tools: readonly ToolSpec[];
}

/** A tool as listed: its spec, where it comes from, and whether agents may use it. */
export interface ListedTool extends ToolSpec {
  /** `<extension-id>/<tool>` */
  id: string;
  /** The tool's id within its extension. */
  name: string;
  extensionId: string;
  extensionTitle: string;
  /** Switched on for AI agents (`svckit mcp`). */
  agents: boolean;
}

/** Who asks: the person (the notch, a script with the token) or an agent through `svckit mcp`. */
export type ToolCaller = "person" | "agent";

/** An agent's call as the notch describes it: who (as its MCP client says), and when it went away. */
export interface AgentCall {
  agent: string;
  signal?: AbortSignal;
}

export interface DropAnswer {
  message: string;
  outputs: string[];
  copiedText?: string;
}

type Request = <P, R>(type: RequestType<P, R>, params: P, options?: SendOptions) => Promise<R>;
type Log = (level: AppLogLevel, message: string) => void;

export interface ToolRunnerDeps {
  /** The loaded extensions and their current tool specs. */
  extensions(): readonly ExtensionTools[];
  /** A request to the runtime (the supervisor's). */
  request: Request;
  /** `<support>/Data`: extension `x` may hand back files from `<dataDir>/x/`. */
  dataDir: string;
  switches: AgentSwitches;
  /** Where an agent's file paths wait for the person; absent: they are refused. */
  agentFiles?: AgentFiles;
  /** Counts a request as running inside the extension (a reload with new preferences waits). */
  track?<T>(extensionId: string, work: Promise<T>): Promise<T>;
  log: Log;
  timeoutMs?: number;
}

/** The runtime's error codes, as the kind of failure a caller is told. */
function kindOf(error: unknown): ToolError["kind"] {
  if (!(error instanceof ResponseError)) return "unavailable";
  switch (error.code) {
    case ErrorCodes.UnknownExtension:
    case ErrorCodes.UnknownTool:
      return "unknown";
    case ErrorCodes.InvalidParams:
      return "invalid";
    case ErrorCodes.Timeout:
      return "timeout";
    case ErrorCodes.Crashed:
    case ErrorCodes.ShuttingDown:
    case ErrorCodes.NotInitialized:
      return "unavailable";
    default:
      return "failed";
  }
}

function failure(error: unknown, title: string): ToolError {
  const kind = kindOf(error);
  const message = (error as Error)?.message ?? String(error);
  if (kind === "timeout") return new ToolError(kind, `${title} did not finish in time: ${message}`);
  if (kind === "unavailable" && !(error instanceof ResponseError)) {
    return new ToolError(
      kind,
      `svc's runtime is not available (${message}); it restarts by itself: try again in a moment`,
    );
  }
  return new ToolError(kind, message);
}

/**
 * @example
 * const tools = new ToolRunner({ extensions: () => set.toolsByExtension(), request: (t, p, o) => supervisor.request(t, p, o),
 *   dataDir: support.data, switches, log });
 * const { blocks } = await tools.run("dev.svc.devtools", "json", { action: "format", values: { input: "[1]" } });
 */
export class ToolRunner {
  constructor(private readonly deps: ToolRunnerDeps) {}

  /** Every tool of every loaded extension, in extension then declaration order. */
  list(): ListedTool[] {
    return this.deps.extensions().flatMap((ext) =>
      ext.tools.map((spec) => {
        const id = `${ext.id}/${spec.id}`;
        return {
          ...spec,
          id,
          name: spec.id,
          extensionId: ext.id,
          extensionTitle: ext.title ?? ext.id,
          agents: this.deps.switches.isOn(id),
        };
      }),
    );
  }

  /**
   * One tool by extension id and tool name.
   *
   * @throws ToolError `unknown` naming what exists.
   */
  find(extensionId: string, name: string): ListedTool {
    const tools = this.list().filter((tool) => tool.extensionId === extensionId);
    const found = tools.find((tool) => tool.name === name);
    if (found) return found;
    if (!this.deps.extensions().some((ext) => ext.id === extensionId)) {
      throw new ToolError("unknown", `no extension ${JSON.stringify(extensionId)}: GET /v1/tools lists every tool`);
    }
    const known =
      tools.length > 0 ? `its tools are ${tools.map((t) => JSON.stringify(t.name)).join(", ")}` : "it has no tools";
    throw new ToolError("unknown", `${extensionId} has no tool ${JSON.stringify(name)}: ${known}`);
  }

  /** Switches a tool on or off for agents; the tool must exist now. */
  async setAgents(extensionId: string, name: string, on: boolean): Promise<ListedTool> {
    const tool = this.find(extensionId, name);
    await this.deps.switches.set(tool.id, on);
    return { ...tool, agents: on };
  }

  /**
   * Runs one action of a tool. `body` is the request as sent: `{action?, values?}`. An agent's
   * file paths wait for the person's answer in the notch first (`call` says who asks).
   *
   * @throws ToolError for every failure, with its kind.
   */
  async run(
    extensionId: string,
    name: string,
    body: unknown,
    caller: ToolCaller = "person",
    runId?: string,
    call?: AgentCall,
  ): Promise<{ blocks: Block[] }> {
    const tool = this.find(extensionId, name);
    this.refuseAgentUnlessOn(tool, caller);
    const { action, values } = readRunRequest(tool, body);
    const given: string[] = [];
    for (const { field, paths } of fileValues(tool, values)) {
      values[field] = await checkGivenFiles(`values.${field}`, paths);
      given.push(...(values[field] as string[]));
    }
    if (caller === "agent" && given.length > 0) await this.askPerson(tool, action, values, given, call);
    const answer = await this.send(tool, ToolRun, {
      id: extensionId,
      tool: name,
      action,
      values,
      ...(runId === undefined ? {} : { runId }),
    });
    const fence = await this.fence(extensionId, given);
    const blocks = await fenceBlocks(fence, answer.blocks as Block[], this.dropped(tool));
    return { blocks };
  }

  /**
   * Hands files to one of a tool's drop actions. `body` is `{action, files}`. Agents may not drop.
   *
   * @throws ToolError for every failure, with its kind.
   */
  async drop(extensionId: string, name: string, body: unknown, caller: ToolCaller = "person"): Promise<DropAnswer> {
    const tool = this.find(extensionId, name);
    this.refuseAgentUnlessOn(tool, caller);
    if (caller === "agent") {
      throw new ToolError(
        "refused",
        `dropping files is for the person: a file path from an agent is not a read grant; drop the files on ${tool.title} in the notch`,
      );
    }
    const request = readDropRequest(tool, body);
    const files = await checkGivenFiles("files", request.files);
    const answer = await this.send(tool, ToolDrop, { id: extensionId, tool: name, action: request.action, files });
    const fence = await this.fence(extensionId, files);
    const outputs = await fencePaths(fence, answer.outputs, this.dropped(tool));
    return { ...answer, outputs };
  }

  /**
   * Aborts the `ctx.signal` of the run started with `runId` (the notch's Cancel). False when that
   * run is not under way any more.
   */
  async cancel(extensionId: string, runId: string): Promise<boolean> {
    try {
      const { cancelled } = await this.deps.request(ToolCancel, { id: extensionId, runId }, { timeoutMs: 5_000 });
      return cancelled;
    } catch (error) {
      throw failure(error, extensionId);
    }
  }

  /**
   * Holds an agent's call until the person allows its files in the notch; throws `ToolError`
   * ("refused") naming why otherwise. The person sees the real paths (symlinks resolved): those,
   * and only those, are granted.
   */
  private async askPerson(
    tool: ListedTool,
    action: string,
    values: Record<string, unknown>,
    files: string[],
    call: AgentCall | undefined,
  ): Promise<void> {
    if (!this.deps.agentFiles) {
      throw new ToolError(
        "refused",
        `a file path from an agent is not a read grant, and this svc has no notch to ask the person: give the file to ${tool.title} in the notch instead`,
      );
    }
    const fileFields = new Set(tool.fields.filter((field) => field.type === "file").map((field) => field.id));
    const others = Object.fromEntries(Object.entries(values).filter(([id]) => !fileFields.has(id)));
    const question = {
      agent: call?.agent ?? "an agent",
      tool: tool.id,
      toolTitle: tool.title,
      extensionTitle: tool.extensionTitle,
      action,
      actionTitle: tool.actions.find((a) => a.id === action)?.title ?? action,
      files,
      values: valuesText(others),
    };
    await this.deps.agentFiles.ask(question, call?.signal);
  }

  private refuseAgentUnlessOn(tool: ListedTool, caller: ToolCaller): void {
    if (caller === "agent" && !tool.agents) {
      throw new ToolError(
        "refused",
        `${tool.title} (${tool.id}) is not switched on for agents: switch it on in Settings → Tools`,
      );
    }
  }

  private async send<P, R>(tool: ListedTool, type: RequestType<P, R>, params: P): Promise<R> {
    const request = this.deps.request(type, params, { timeoutMs: this.deps.timeoutMs ?? HOST_TOOL_TIMEOUT_MS });
    try {
      return await (this.deps.track ? this.deps.track(tool.extensionId, request) : request);
    } catch (error) {
      throw failure(error, tool.title);
    }
  }

  /** The places this run may hand files back from: the extension's data folder and the files given. */
  private async fence(extensionId: string, given: readonly string[]): Promise<ToolPathFence> {
    const dataDir = join(this.deps.dataDir, extensionId);
    // The runtime makes it on load; made here too so a tool that never wrote has one to resolve.
    await mkdir(dataDir, { recursive: true });
    return ToolPathFence.create(dataDir, given);
  }

  private dropped(tool: ListedTool) {
    return (reason: string) => this.deps.log("warn", `${tool.id}: the host dropped a returned file: ${reason}`);
  }
}
