/**
 * `svckit mcp`: svc's tools for AI agents, as a Model Context Protocol server on stdin/stdout.
 * Runs until the client closes stdin (or Ctrl-C). Nothing else is written to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
  options: {
    "print-config": {
      type: "boolean",
      description: "print the MCP client configuration for this svckit (absolute paths) and exit",
    },
  },
  examples: ["svckit mcp --print-config   # paste into claude_desktop_config.json or your editor's MCP settings"],
  async run({ options }, ctx) {
    if (options["print-config"]) {
      ctx.out.info(JSON.stringify(mcpClientConfig(ctx.env), null, 2));
      return;
    }
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

/**
 * The `mcpServers` entry that starts this very svckit. Absolute paths both: an MCP client starts
 * its servers without the person's shell, so neither `node` on PATH nor `npx` can be counted on
 * (and `npx svckit` would fetch whatever a stranger publishes under that unclaimed name).
 *
 * @example
 * mcpClientConfig({ SVC_HOME: "/tmp/svc" })
 * // { mcpServers: { svc: { command: "/usr/bin/node", args: ["/repo/cli/bin/svckit.js", "mcp"], env: { SVC_HOME: "/tmp/svc" } } } }
 */
export function mcpClientConfig(env: Readonly<Record<string, string | undefined>>): {
  mcpServers: { svc: { command: string; args: string[]; env?: { SVC_HOME: string } } };
} {
  const script = realpathSync(fileURLToPath(new URL("../../bin/svckit.js", import.meta.url)));
  const home = env.SVC_HOME;
  return {
    mcpServers: {
      svc: { command: process.execPath, args: [script, "mcp"], ...(home ? { env: { SVC_HOME: home } } : {}) },
    },
  };
}
