/**
 * What a waiting hook prints, in each agent's own documented output. Only Claude Code and
 * Gemini CLI wait for an answer before a tool runs; the words "ask" / no decision hand the
 * call back to the agent's own prompt.
 */
import type { Agent } from "./agent-events.js";

export type Decision = "approve" | "deny";

/**
 * @example
 * decisionReply("claude", "approve")
 * // { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "Approved in svc" } }
 */
export function decisionReply(agent: Agent, decision: Decision): unknown {
  const reason = decision === "approve" ? "Approved in svc" : "Denied in svc";
  if (agent === "gemini") return { decision: decision === "approve" ? "allow" : "deny", reason };
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision === "approve" ? "allow" : "deny",
      permissionDecisionReason: reason,
    },
  };
}

/** The answer that decides nothing: the agent's own prompt does (Claude: "ask"; Gemini: no decision). */
export function undecidedReply(agent: Agent): unknown {
  if (agent === "claude") return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } };
  return {};
}
