/**
 * svc's tools as an MCP server. Every request reads `webhook.json` afresh (through `AppTools`)
 * and marks its calls `Svc-Caller: agent`, so the app itself holds the rules: only tools the
 * person switched on for agents, never a file path, never a drop.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppTools, type AppTool } from "../tools/app-tools.js";
import { mcpContent } from "./content.js";
import { inputSchema } from "./tool-schema.js";
import { mcpNames } from "./tool-names.js";

/**
 * While an agent's files wait for the person, a progress notification this often (when the client asked for progress).
 */
export const WAITING_PROGRESS_MS = 10_000;
const WAITING_MESSAGE = "waiting for the person to allow the files in svc's notch";

/** One MCP tool: one action of one svc tool. */
interface Offered {
  name: string;
  tool: AppTool;
  action: string;
}

function offered(tools: readonly AppTool[]): Offered[] {
  const pairs = tools
    .filter((tool) => tool.agents)
    .flatMap((tool) =>
      (tool.actions.length > 0 ? tool.actions.map((a) => a.id) : ["run"]).map((action) => ({ tool, action })),
    );
  const names = mcpNames(
    pairs.map(({ tool, action }) => ({
      toolId: tool.id,
      extensionId: tool.extensionId,
      tool: tool.name,
      action,
      several: tool.actions.length > 1,
    })),
  );
  return pairs.map((pair, i) => ({ ...pair, name: names[i] }));
}

function description({ tool, action }: Offered): string {
  const actionTitle = tool.actions.length > 1 ? ` — ${tool.actions.find((a) => a.id === action)?.title ?? action}` : "";
  const summary = tool.summary ? ` ${tool.summary}` : "";
  return `${tool.title}${actionTitle} (svc tool ${tool.id}, from ${tool.extensionTitle}).${summary}`;
}

/**
 * @example
 * const server = createMcpServer({ support: "/Users/me/Library/Application Support/Svc", version: "0.1.0" });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: { support: string; version: string }): Server {
  const app = new AppTools(options.support, "agent");
  const server = new Server(
    { name: "svc", version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        "svc's tools: small local utilities (JSON, JWT, URL, timestamps …) the person has switched on for agents in svc's Settings.",
    },
  );

  const current = async (): Promise<Offered[]> => {
    try {
      return offered(await app.list());
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, (error as Error).message);
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await current()).map((entry) => ({
      name: entry.name,
      title:
        entry.tool.actions.length > 1
          ? `${entry.tool.title}: ${entry.tool.actions.find((a) => a.id === entry.action)?.title}`
          : entry.tool.title,
      description: description(entry),
      inputSchema: inputSchema(entry.tool.fields),
    })),
  }));

  /** The agent as its MCP client introduced itself (`initialize`): what the notch shows. */
  const agentName = (): string | undefined => {
    const client = server.getClientVersion();
    return client ? `${client.name} ${client.version}`.trim() : undefined;
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = (await current()).find((candidate) => candidate.name === request.params.name);
    if (!entry) {
      return {
        isError: true,
        content: [
          {
            type: "text",
            text: `no svc tool named ${JSON.stringify(request.params.name)} is switched on for agents; list the tools again`,
          },
        ],
      };
    }
    const values = request.params.arguments ?? {};
    // A call with files waits for the person: say so, so the client shows it (and, if it resets
    // its timeout on progress, keeps waiting). The first at once, then every WAITING_PROGRESS_MS.
    const token = request.params._meta?.progressToken;
    const withFiles = entry.tool.fields.some(
      (field) => field.type === "file" && Array.isArray(values[field.id]) && (values[field.id] as unknown[]).length > 0,
    );
    let ticks = 0;
    const tell = () =>
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken: token!, progress: ++ticks, message: WAITING_MESSAGE },
        })
        .catch(() => {});
    const progress = token !== undefined && withFiles ? setInterval(tell, WAITING_PROGRESS_MS) : undefined;
    if (progress) tell();
    try {
      const agent = agentName();
      const { blocks } = await app.run(
        entry.tool.id,
        { action: entry.action, values },
        { signal: extra.signal, ...(agent ? { agent } : {}) },
      );
      return { content: await mcpContent(blocks) };
    } catch (error) {
      const message = (error as { reason?: string }).reason ?? (error as Error).message;
      return { isError: true, content: [{ type: "text", text: message }] };
    } finally {
      clearInterval(progress);
    }
  });
  return server;
}
