/**
 * An AI agent (through `svckit mcp`) asks to run a tool with file paths: a path is a read grant,
 * so the call waits until the person allows or denies these exact files (host/src/tools/agent-files.ts).
 * Every string here comes from a stranger: the page shows it through the display-text rule.
 *
 * The page's vocabulary (ui-server/wire.ts) re-exports it as `UiAgentFilesRequest`; this file
 * imports nothing, so the page can read it.
 */
export interface AgentFilesRequest {
  id: string;
  /** What the agent's MCP client calls itself (`name version`), or `an agent`. */
  agent: string;
  /** `<extension-id>/<tool>` */
  tool: string;
  toolTitle: string;
  extensionTitle: string;
  action: string;
  actionTitle: string;
  /** The files the tool would read: real paths, symlinks resolved. */
  files: string[];
  /** The call's other values, as JSON (clipped). */
  values: string;
  /** Epoch ms: past this the host answers the agent "no answer" by itself. */
  expiresAt: number;
}
