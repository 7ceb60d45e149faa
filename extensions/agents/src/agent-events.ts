/**
 * What an agent's hook sent, read into one shape. Each agent documents its own hook input:
 *
 * - Claude Code (hooks in settings.json, input on stdin): `session_id`, `cwd`,
 *   `hook_event_name` (`SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PostToolUse`,
 *   `Notification`, `Stop`, `SessionEnd`), `tool_name`, `tool_input`, `message`,
 *   `notification_type`, `prompt`.
 * - Gemini CLI (hooks in settings.json, input on stdin): the same base fields plus `timestamp`;
 *   its events are `BeforeTool`, `AfterTool`, `BeforeAgent`, `AfterAgent`, `Notification`,
 *   `SessionStart`, `SessionEnd`.
 * - Codex (`notify` in config.toml, the JSON as the program's last argument): only
 *   `type: "agent-turn-complete"` with `thread-id`, `cwd`, `last-assistant-message`.
 *
 * Anything else is `undefined`: the extension ignores it (and answers a waiting sender `{}`).
 */

export type Agent = "claude" | "gemini" | "codex";

export const AGENT_NAMES: Record<Agent, string> = {
  claude: "Claude Code",
  gemini: "Gemini CLI",
  codex: "Codex",
};

export type AgentEventKind =
  /** a session began */
  | "start"
  /** the person gave it work */
  | "prompt"
  /** it wants to use a tool: an approval when the sender waits */
  | "tool"
  /** a tool finished */
  | "used"
  /** it waits for the person (a permission prompt in its terminal, or idle) */
  | "waiting"
  /** it finished its turn */
  | "done"
  /** the session ended */
  | "end";

export interface AgentEvent {
  agent: Agent;
  sessionId: string;
  kind: AgentEventKind;
  cwd?: string;
  /** what the step line says: the tool and its target, the prompt, the agent's message */
  detail?: string;
  /** the tool's name, for an approval */
  tool?: string;
}

const CLAUDE_KINDS: Record<string, AgentEventKind> = {
  SessionStart: "start",
  UserPromptSubmit: "prompt",
  PreToolUse: "tool",
  PostToolUse: "used",
  Notification: "waiting",
  Stop: "done",
  SessionEnd: "end",
};

const GEMINI_KINDS: Record<string, AgentEventKind> = {
  SessionStart: "start",
  BeforeAgent: "prompt",
  BeforeTool: "tool",
  AfterTool: "used",
  Notification: "waiting",
  AfterAgent: "done",
  SessionEnd: "end",
};

/** Events only Gemini CLI sends; the ones both send are told apart by Gemini's `timestamp`. */
const GEMINI_ONLY = new Set(["BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"]);

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** The tool's target, as the person would recognise it: the command, the file, the address. */
export function toolTarget(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const name of ["command", "file_path", "absolute_path", "path", "url", "pattern", "query"]) {
    const value = text(fields[name]);
    if (value) return value;
  }
  return undefined;
}

/**
 * @example
 * readAgentEvent({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm test" } })
 * // { agent: "claude", sessionId: "s1", kind: "tool", tool: "Bash", detail: "npm test" }
 */
export function readAgentEvent(body: unknown): AgentEvent | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const input = body as Record<string, unknown>;
  if (input.type === "agent-turn-complete") {
    const sessionId = text(input["thread-id"]) ?? text(input["turn-id"]);
    if (!sessionId) return undefined;
    return {
      agent: "codex",
      sessionId,
      kind: "done",
      cwd: text(input.cwd),
      detail: text(input["last-assistant-message"]),
    };
  }
  const name = text(input.hook_event_name);
  const sessionId = text(input.session_id);
  if (!name || !sessionId) return undefined;
  const agent: Agent =
    GEMINI_ONLY.has(name) || (typeof input.timestamp === "string" && name in GEMINI_KINDS) ? "gemini" : "claude";
  const kind = (agent === "gemini" ? GEMINI_KINDS : CLAUDE_KINDS)[name];
  if (!kind) return undefined;
  const tool = text(input.tool_name);
  const detail =
    kind === "tool" || kind === "used"
      ? toolTarget(input.tool_input)
      : kind === "prompt"
        ? text(input.prompt)
        : kind === "waiting"
          ? text(input.message)
          : kind === "done"
            ? (text(input.prompt_response) ?? text(input.last_assistant_message))
            : undefined;
  return {
    agent,
    sessionId,
    kind,
    ...(text(input.cwd) ? { cwd: text(input.cwd) } : {}),
    ...(tool ? { tool } : {}),
    ...(detail ? { detail } : {}),
  };
}
