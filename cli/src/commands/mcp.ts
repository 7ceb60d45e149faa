/**
 * `svckit mcp`: svc's tools for AI agents, as a Model Context Protocol server on stdin/stdout.
 * Runs until the client closes stdin (or Ctrl-C). Nothing else is written to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { createMcpServer } from "../mcp/mcp-server.js";
import { supportFolder } from "../support-folder.js";
import { svckitVersion } from "../version.js";

export const mcp = defineCommand({
  name: "mcp",
  summary: "serve the app's tools to AI agents over MCP (stdio)",
  details: [
    "An MCP client (Claude Desktop, an editor, an agent) starts `svckit mcp` and talks to it on",
    "stdin/stdout. It offers the tools you switched on for agents in svc's Settings (all are off",
    "until then), one MCP tool per action, and runs them in the running app: webhook.json is",
    "read on every call. A call with file paths waits until you allow those files in svc's",
    "notch (Allow / Deny); with no notch open, or no answer in time, it is refused.",
  ],
  positionals: [],
  options: {},
  examples: [`{"mcpServers": {"svc": {"command": "npx", "args": ["svckit", "mcp"]}}}`],
  async run(_input, ctx) {
    if (!ctx.streams)
      throw new CliError("svckit mcp speaks MCP on standard input and output: run it as a process (svckit mcp)");
    const { stdin, stdout } = ctx.streams;
    const server = createMcpServer({ support: supportFolder(ctx.env), version: svckitVersion });
    const transport = new StdioServerTransport(stdin, stdout);
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      stdin.once("end", () => void server.close());
      ctx.signal.addEventListener("abort", () => void server.close(), { once: true });
    });
    await server.connect(transport);
    ctx.out.warn("svckit mcp: serving svc's tools on stdin/stdout");
    await closed;
  },
});
