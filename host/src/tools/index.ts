/**
 * The host's tools (SPEC.md "Tool spec", "Tool run flow"): the list, runs and drops through the
 * runtime with the host's own checks, the `/v1/tools` routes, and the per-tool switch for agents.
 *
 * @example
 * const switches = await AgentSwitches.open(join(support.root, "agent-tools.json"), log);
 * const agentFiles = new AgentFiles({ publish: (waiting) => ui.publish({ type: "agentFiles", waiting }), viewers: () => ui.viewers() });
 * const tools = new ToolRunner({ extensions: () => set.toolsByExtension(), request, dataDir: support.data, switches, agentFiles, log });
 * app.use("/v1/tools", toolRoutes(tools));
 */
export {
  ToolRunner,
  HOST_TOOL_TIMEOUT_MS,
  type AgentCall,
  type ExtensionTools,
  type ListedTool,
  type ToolCaller,
  type DropAnswer,
  type ToolRunnerDeps,
} from "./tool-runner.js";
export { ToolError, TOOL_ERROR_STATUS, type ToolErrorKind } from "./tool-error.js";
export { AgentSwitches } from "./agent-switches.js";
export { AgentFiles, AGENT_FILES_TIMEOUT_MS, MAX_WAITING_AGENT_FILES, type AgentFilesQuestion } from "./agent-files.js";
export { GivenFiles, MAX_GIVEN_FILES, checkGivenFiles, isHandleRef } from "./given-files.js";
export { checkValues, readRunRequest, readDropRequest, defaultAction } from "./tool-request.js";
export { pageTools, type PageTools, type PageBlock } from "./page-tools.js";
