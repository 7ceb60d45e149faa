/**
 * The real svc-host (and its real runtime) with the tools fixture installed, and a client for
 * its `/v1/tools` routes that reads `webhook.json` on every call, as scripts do.
 */
import { join } from "node:path";
import { startHost, webhookInfo, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { FIXTURE_CODE, TOOLS_FILE, TOOLS_ID } from "./fixture.js";

export interface Answer {
  status: number;
  json: any;
}

/** One request to the host with its bearer token (unless `headers` says otherwise). */
export async function callHost(
  world: World,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const { port, token } = await webhookInfo(world);
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** Writes the fixture into the world's bundled folder (and, when asked, one whose code cannot load). */
export async function writeToolFixtures(world: World, options: { unloadable?: boolean } = {}): Promise<void> {
  await writeExtension(join(world.bundled, "tools"), {
    svc: { id: TOOLS_ID, title: "Tool fixture" },
    code: FIXTURE_CODE,
    tools: TOOLS_FILE,
  });
  if (options.unloadable) {
    await writeExtension(join(world.bundled, "unloadable"), {
      svc: { id: "com.example.unloadable", title: "Unloadable" },
      code: `throw new Error("this bundle cannot load");`,
      tools: TOOLS_FILE,
    });
  }
}

/** Starts the host with the fixtures and waits until the runtime reported the fixture's own tools. */
export async function startToolHost(
  world: World,
  env: Record<string, string> = {},
  options: { unloadable?: boolean } = {},
): Promise<RunningHost> {
  await writeToolFixtures(world, options);
  const host = await startHost(world, env);
  await host.waitFor((e) => e.type === "extension.tools" && e.id === TOOLS_ID, { timeoutMs: 30_000 });
  return host;
}
