/**
 * The `/v1/tools` routes (host/README.md "Tools"): list, run, drop, and the per-tool switch for
 * agents. They sit behind every guard of the `/v1` server (loopback Host, no Origin, bearer
 * token); bodies are read by the server's one JSON reader.
 *
 * `Svc-Caller: agent` marks a request made for an AI agent (`svckit mcp` sends it): such a call
 * reaches only tools switched on for agents, and its file paths wait for the person's answer in
 * the notch (agent-files.ts). `Svc-Agent` (percent-encoded) says which agent, for the notch.
 *
 * `/v1/given-files` is where the desktop shell's main process registers a file the person
 * dropped or picked (a read grant) and gets the handle the page holds instead of the path.
 */
import { Router, type Request, type Response } from "express";
import type { V1Body } from "@svc/api";
import { HttpError } from "../support/http/index.js";
import { serve } from "./serve.js";

/** Where `toolRoutes` and `givenFileRoutes` are mounted. */
export const TOOLS_MOUNT = "/v1/tools";
export const GIVEN_FILES_MOUNT = "/v1/given-files";
import { ToolError, type AgentCall, type GivenFiles, type ToolCaller, type ToolRunner } from "../tools/index.js";

/** The header `svckit mcp` sends on every call it makes for an agent. */
export const CALLER_HEADER = "svc-caller";

function callerOf(req: Request): ToolCaller {
  const value = req.headers[CALLER_HEADER];
  if (value === undefined) return "person";
  if (value === "agent") return "agent";
  throw new HttpError(
    400,
    `${CALLER_HEADER} should be "agent" or absent; got ${JSON.stringify(String(value).slice(0, 40))}`,
  );
}

/** The header naming the agent (its MCP client's `name version`, percent-encoded), shown in the notch. */
export const AGENT_HEADER = "svc-agent";
const AGENT_NAME_MAX = 100;

/**
 * Who the agent says it is, and a signal for when its request goes away (the call closed before
 * the answer), so a question it no longer waits for leaves the notch.
 */
function agentCall(req: Request, res: Response): AgentCall {
  const raw = req.headers[AGENT_HEADER];
  let agent = "an agent";
  if (typeof raw === "string" && raw !== "") {
    try {
      agent = decodeURIComponent(raw).slice(0, AGENT_NAME_MAX);
    } catch {
      throw new HttpError(400, `${AGENT_HEADER} should be percent-encoded text (encodeURIComponent)`);
    }
  }
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return { agent, signal: gone.signal };
}

/** A ToolError as the HTTP error it answers. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolError) throw new HttpError(error.status, error.message);
    throw error;
  }
}

const params = (req: Request) => ({ extensionId: String(req.params.extensionId), tool: String(req.params.tool) });

/**
 * @example
 * app.use(TOOLS_MOUNT, toolRoutes(tools));
 */
export function toolRoutes(tools: ToolRunner): Router {
  const router = Router({ strict: true });

  serve(
    router,
    TOOLS_MOUNT,
    "listTools",
    (_req: Request, res: Response) => void res.status(200).json({ tools: tools.list() }),
  );

  serve(router, TOOLS_MOUNT, "runTool", async (req: Request, res: Response) => {
    const { extensionId, tool } = params(req);
    const caller = callerOf(req);
    const call = caller === "agent" ? agentCall(req, res) : undefined;
    const answer = await answering(() => tools.run(extensionId, tool, req.body, caller, undefined, call));
    res.status(200).json(answer);
  });

  serve(router, TOOLS_MOUNT, "dropOnTool", async (req: Request, res: Response) => {
    const { extensionId, tool } = params(req);
    const caller = callerOf(req);
    const answer = await answering(() => tools.drop(extensionId, tool, req.body, caller));
    res.status(200).json(answer);
  });

  serve(router, TOOLS_MOUNT, "setToolAgents", async (req: Request, res: Response) => {
    const { extensionId, tool } = params(req);
    if (callerOf(req) === "agent")
      throw new HttpError(403, "only the person switches tools on for agents, in Settings → Tools");
    const { enabled } = req.body as V1Body<"setToolAgents">;
    const listed = await answering(() => tools.setAgents(extensionId, tool, enabled));
    res.status(200).json({ id: listed.id, agents: listed.agents });
  });

  return router;
}

/**
 * `POST /v1/given-files` `{path}` → `{handle}`. Only a caller with the bearer token reaches it
 * (the person's own programs: the desktop shell), never the page (the UI server has no such
 * route, and a page cannot send the token or pass the Origin guard), never an agent (403).
 *
 * @example
 * app.use(GIVEN_FILES_MOUNT, givenFileRoutes(givenFiles));
 */
export function givenFileRoutes(given: GivenFiles): Router {
  const router = Router({ strict: true });
  serve(router, GIVEN_FILES_MOUNT, "giveFiles", async (req: Request, res: Response) => {
    if (callerOf(req) === "agent")
      throw new HttpError(
        403,
        "a file path from an agent is not a read grant: only the person gives files, by dropping or choosing them in the notch",
      );
    const body = req.body as V1Body<"giveFiles">;
    const handle = await answering(() => given.give(body.path));
    res.status(200).set("Cache-Control", "no-store").json({ handle });
  });
  return router;
}
