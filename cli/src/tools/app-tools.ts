/**
 * The running app's tools over its local HTTP API (host/README.md "Tools"), reading
 * `webhook.json` afresh on every call. `svckit tool` and `svckit mcp` both go through here; an
 * MCP server marks its calls `Svc-Caller: agent`, so the app applies the agents' rules.
 */
import type { Block, ToolSpec, V1Params, V1RouteName } from "@svc/api";
import { CliError } from "../errors.js";
import { callApp, errorText, readWebhookConfig, type HttpAnswer } from "../webhook-client.js";

/** A tool as `GET /v1/tools` lists it. */
export interface AppTool extends ToolSpec {
  /** `<extension-id>/<tool>` */
  id: string;
  name: string;
  extensionId: string;
  extensionTitle: string;
  agents: boolean;
}

export interface DropAnswer {
  message: string;
  outputs: string[];
  copiedText?: string;
}

/** Who the calls are for: the person at a terminal, or an AI agent through `svckit mcp`. */
export type Caller = "person" | "agent";

/** The host gives up on a tool at 35 s; wait a little longer so its own answer arrives. */
const TOOL_CALL_TIMEOUT_MS = 40_000;
/**
 * An agent's call with file paths first waits for the person's answer in the notch (the host's
 * `AGENT_FILES_TIMEOUT_MS`, 50 s by default): wait for that too.
 */
const AGENT_CALL_TIMEOUT_MS = TOOL_CALL_TIMEOUT_MS + 60_000;

/** An agent's call: who it is (its MCP client's name and version, shown in the notch) and when it gave up. */
export interface AgentCallInfo {
  agent?: string;
  signal?: AbortSignal;
}

/** An answer other than 2xx, as the person should read it; 400 and 404 are usage errors. */
export class AppRefusal extends CliError {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`the app answered ${status}: ${reason}`, status === 400 || status === 404 ? 2 : 1);
  }
}

function refused(answer: HttpAnswer, configPath: string): never {
  if (answer.status === 401) {
    throw new CliError(
      `the app refused the token from ${configPath} (401): the file is stale. Restart the app so it writes a fresh one.`,
    );
  }
  throw new AppRefusal(answer.status, errorText(answer.body));
}

/**
 * @example
 * const tools = new AppTools(supportFolder(env));
 * const [first] = await tools.list();
 * const { blocks } = await tools.run(first.id, { values: {} });
 */
export class AppTools {
  constructor(
    private readonly support: string,
    private readonly caller: Caller = "person",
  ) {}

  private async call<N extends V1RouteName>(
    name: N,
    params: V1Params<N>,
    body?: unknown,
    timeoutMs?: number,
    info: AgentCallInfo = {},
  ): Promise<unknown> {
    const config = await readWebhookConfig(this.support);
    const headers: Record<string, string> = this.caller === "agent" ? { "svc-caller": "agent" } : {};
    if (this.caller === "agent" && info.agent) headers["svc-agent"] = encodeURIComponent(info.agent.slice(0, 100));
    const text = body === undefined ? undefined : JSON.stringify(body);
    const answer = await callApp(config, name, params, text, {
      headers,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(info.signal ? { signal: info.signal } : {}),
    });
    if (answer.status < 200 || answer.status > 299) refused(answer, config.path);
    return answer.body;
  }

  /** Every tool of the running app. */
  async list(): Promise<AppTool[]> {
    const body = (await this.call("listTools", {})) as { tools?: AppTool[] } | undefined;
    return Array.isArray(body?.tools) ? body.tools : [];
  }

  /**
   * One tool by `<extension-id>/<tool>`.
   *
   * @throws CliError (usage) naming the tools there are.
   */
  async find(id: string): Promise<AppTool> {
    const tools = await this.list();
    const found = tools.find((tool) => tool.id === id);
    if (found) return found;
    const known =
      tools.length > 0 ? `the app's tools are ${tools.map((t) => t.id).join(", ")}` : "the app has no tools";
    throw CliError.usage(`no tool ${JSON.stringify(id)}: ${known}`, "tool");
  }

  /** Runs one action (`POST /v1/tools/<id>`); for an agent, `info` names it in the notch. */
  async run(
    id: string,
    request: { action?: string; values: Record<string, unknown> },
    info: AgentCallInfo = {},
  ): Promise<{ blocks: Block[] }> {
    const timeout = this.caller === "agent" ? AGENT_CALL_TIMEOUT_MS : TOOL_CALL_TIMEOUT_MS;
    const body = (await this.call("runTool", toolParams(id), request, timeout, info)) as { blocks?: Block[] };
    return { blocks: Array.isArray(body?.blocks) ? body.blocks : [] };
  }

  /** Hands files to a drop action (`POST /v1/tools/<id>/drop`). */
  async drop(id: string, request: { action: string; files: string[] }): Promise<DropAnswer> {
    return (await this.call("dropOnTool", toolParams(id), request, TOOL_CALL_TIMEOUT_MS)) as DropAnswer;
  }
}

/** `<extension-id>/<tool>` as a URL path, each part percent-encoded. */
function toolParams(id: string): { extensionId: string; tool: string } {
  const at = id.indexOf("/");
  return { extensionId: id.slice(0, at), tool: id.slice(at + 1) };
}
