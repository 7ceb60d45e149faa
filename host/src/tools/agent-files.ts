/**
 * An AI agent's file paths, held until the person answers in the notch. A path given to a tool
 * is a read grant (given-files.ts), and an agent is not the person: so a call from `svckit mcp`
 * that carries file paths waits here, the open notch shows which agent, which tool and action,
 * which files (real paths) and the call's other values, and the person allows or denies.
 *
 * Allow grants those exact files for that one run. Everything else refuses the agent with a
 * message naming why: the person said no, nobody answered within `AGENT_FILES_TIMEOUT_MS`, no
 * notch was open to ask, `MAX_WAITING_AGENT_FILES` requests were already waiting, the agent went
 * away, or svc is stopping. Nothing is stored: a request lives only while its call waits.
 */
import type { Disposable } from "@svc/api";
import { randomBytes } from "node:crypto";
import { escapeForDisplay } from "@svc/api";
import type { AgentFilesRequest } from "./agent-files-request.js";
import { ToolError } from "./tool-error.js";

/**
 * How long the person has to answer. Under the 60 s an MCP client waits by default for a call
 * (the SDK's `DEFAULT_REQUEST_TIMEOUT_MSEC`), so the agent hears our reason, not its own timeout.
 */
export const AGENT_FILES_TIMEOUT_MS = 50_000;
/** Requests waiting at once; one more is refused at once (an agent cannot flood the notch). */
export const MAX_WAITING_AGENT_FILES = 4;
/** The call's other values are shown as JSON up to this length. */
const VALUES_SHOWN = 500;

/** What the notch shows, before the host adds the id and the deadline. */
export type AgentFilesQuestion = Omit<AgentFilesRequest, "id" | "expiresAt">;

export interface AgentFilesDeps {
  /** Sends the waiting list to every open page (after each change). */
  publish(waiting: AgentFilesRequest[]): void;
  /** Pages following the feed now: none means nobody could answer. */
  viewers(): number;
  timeoutMs?: number;
  max?: number;
  log?: (level: "info", message: string) => void;
}

interface Waiting {
  request: AgentFilesRequest;
  settle(refusal: string | undefined): void;
}

const count = (files: readonly string[]) => (files.length === 1 ? "1 file" : `${files.length} files`);

/** The call's non-file values as the person reads them: JSON, clipped. */
export function valuesText(values: Record<string, unknown>): string {
  const text = JSON.stringify(values);
  return text.length > VALUES_SHOWN ? `${text.slice(0, VALUES_SHOWN - 1)}…` : text;
}

/**
 * @example
 * const agentFiles = new AgentFiles({ publish: (waiting) => ui.publish({ type: "agentFiles", waiting }), viewers: () => ui.viewers() });
 * await agentFiles.ask({ agent: "claude-code 1.0", tool: "dev.svc.devtools/base64", …, files: ["/Users/me/logo.png"] }); // throws ToolError unless allowed
 * agentFiles.answer(id, true); // from the page
 */
export class AgentFiles implements Disposable {
  private readonly waiting = new Map<string, Waiting>();
  private closed = false;

  constructor(private readonly deps: AgentFilesDeps) {}

  get timeoutMs(): number {
    return this.deps.timeoutMs ?? AGENT_FILES_TIMEOUT_MS;
  }

  /** The requests waiting now, oldest first (a reloaded page starts from these). */
  list(): AgentFilesRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request);
  }

  /**
   * Asks the person; resolves when they allow, throws `ToolError` ("refused") naming the reason
   * otherwise. `signal`: the agent went away (its request is withdrawn from the notch).
   */
  ask(question: AgentFilesQuestion, signal?: AbortSignal): Promise<void> {
    const files = count(question.files);
    const refuse = (reason: string) => Promise.reject(new ToolError("refused", reason));
    if (this.closed) return refuse("svc is stopping: the person was not asked, and the tool did not run");
    if (this.deps.viewers() === 0) {
      return refuse(
        `no svc notch is open to ask the person: a file path from an agent is a read grant only once the person allows it there. Ask them to open svc, then call ${question.toolTitle} again`,
      );
    }
    const max = this.deps.max ?? MAX_WAITING_AGENT_FILES;
    if (this.waiting.size >= max) {
      return refuse(
        `${max} requests for files already wait for the person's answer in svc's notch: wait for those, then call ${question.toolTitle} again`,
      );
    }
    if (signal?.aborted) return refuse("the request was withdrawn before the person answered");
    const id = randomBytes(12).toString("base64url");
    const timeoutMs = this.timeoutMs;
    const request: AgentFilesRequest = { ...question, id, expiresAt: Date.now() + timeoutMs };
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => entry.settle("the request was withdrawn before the person answered");
      const timer = setTimeout(
        () =>
          entry.settle(
            `the person did not answer within ${Math.round(timeoutMs / 1000)} s in svc's notch: ${question.toolTitle} did not run. Call again when they can answer`,
          ),
        timeoutMs,
      );
      timer.unref?.();
      const entry: Waiting = {
        request,
        settle: (refusal) => {
          if (!this.waiting.delete(id)) return;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          this.deps.log?.(
            "info",
            `${escapeForDisplay(question.agent, { max: 100 })} asked for ${files} for ${question.tool}: ${refusal === undefined ? "allowed" : refusal}`,
          );
          this.publish();
          if (refusal === undefined) resolve();
          else reject(new ToolError("refused", refusal));
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, entry);
      this.publish();
    });
  }

  /** The person's answer. False when that request is over (answered, timed out, withdrawn). */
  answer(id: string, allow: boolean): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    const { toolTitle, files } = entry.request;
    entry.settle(
      allow
        ? undefined
        : `the person denied ${toolTitle} access to ${count(files)} in svc's notch: the tool did not run`,
    );
    return true;
  }

  /** Refuses everything still waiting and every later request (svc is stopping). */
  dispose(): void {
    this.closed = true;
    for (const entry of [...this.waiting.values()])
      entry.settle("svc is stopping: the person did not answer, and the tool did not run");
  }

  private publish(): void {
    this.deps.publish(this.list());
  }
}
