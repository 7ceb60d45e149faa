/**
 * The server serves exactly the `/v1` route table (sdk's `V1_ROUTES`): every route of the table
 * answers its own method (another method is 405 with `Allow` naming it), and the server holds no
 * route beyond the table; every route's body is checked against the table's schema before its
 * handler runs. Real loopback HTTP against the real app (`createApp`); the managers behind the
 * routes are stand-ins that no request here reaches (only wrong methods and wrong bodies are sent).
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Express } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkV1Body, V1_ROUTES, v1Path, type V1RouteName } from "@svc/api";
import { createApp } from "../../host/src/http/app.js";
import { HeldReplies } from "../../host/src/http/held-replies.js";
import { LogStreams } from "../../host/src/http/log-stream.js";
import { HostEvents } from "../../host/src/events/index.js";
import { BlipStore } from "../../host/src/store/index.js";
import { GivenFiles, type ToolRunner } from "../../host/src/tools/index.js";
import type { ExtensionManager } from "../../host/src/manage/index.js";
import { recordingHooks } from "./harness.js";

const TOKEN = "t".repeat(43);
/** The blip id routes take ids holding `/`, so one middleware serves them (http/blip-routes.ts). */
const SERVED_BY_MIDDLEWARE: V1RouteName[] = ["endBlip", "removeBlip"];

let dir: string;
let store: BlipStore;
let app: Express;
let server: Server;
let port: number;

const unreached = (what: string) =>
  new Proxy({}, { get: () => () => Promise.reject(new Error(`${what} is not asked in this test`)) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-routes-"));
  store = await BlipStore.open(join(dir, "blips.json"), { log: () => {}, saveDelayMs: 20 });
  app = createApp({
    store,
    hooks: recordingHooks(),
    held: new HeldReplies(),
    logs: new LogStreams({ bus: new HostEvents(), log: () => {} }),
    token: TOKEN,
    port: () => port,
    version: "9.9.9-test",
    log: () => {},
    uiTicketUrl: () => "http://127.0.0.1:1/#t=x",
    scheduler: { paused: false, onBattery: false, pause() {}, resume() {}, setOnBattery() {} },
    tools: unreached("the tool runner") as ToolRunner,
    extensions: unreached("the extension manager") as ExtensionManager,
    givenFiles: new GivenFiles(),
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** Every route layer the app holds, in every router. */
function routeLayers(stack: unknown[]): { path: string; methods: string[] }[] {
  return stack.flatMap((layer) => {
    const { route, handle } = layer as {
      route?: { path: string; methods: Record<string, boolean> };
      handle?: { stack?: unknown[] };
    };
    if (route) return [{ path: route.path, methods: Object.keys(route.methods).filter((m) => m !== "_all") }];
    return handle?.stack ? routeLayers(handle.stack) : [];
  });
}

const names = Object.keys(V1_ROUTES) as V1RouteName[];
/** Sample values for a path's `:name` parts. */
const SAMPLE = { id: "deploys", name: "token", extensionId: "deploys", tool: "list" } as const;

describe("the /v1 route table", () => {
  it.each(names)("%s answers only its own method", async (name) => {
    const route = V1_ROUTES[name];
    const wrong = route.method === "GET" ? "POST" : "GET";
    const answer = await fetch(`http://127.0.0.1:${port}${v1Path(name, SAMPLE as never)}`, {
      method: wrong,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect({ status: answer.status, allow: answer.headers.get("allow") }).toEqual({ status: 405, allow: route.method });
  });

  it("holds no route beyond the table", () => {
    const layers = routeLayers((app as unknown as { router: { stack: unknown[] } }).router.stack);
    expect(layers).toHaveLength(names.length - SERVED_BY_MIDDLEWARE.length);
    const methods = layers.map((layer) => layer.methods.map((m) => m.toUpperCase()).join(",")).sort();
    expect(methods).toEqual(
      names
        .filter((name) => !SERVED_BY_MIDDLEWARE.includes(name))
        .map((name) => V1_ROUTES[name].method)
        .sort(),
    );
  });

  // Every route whose body schema refuses a JSON array: the server answers the table's own line.
  const shaped = names.filter((name) => !checkV1Body(name, []).ok);

  it("has routes whose body shape is checked", () => {
    expect(shaped.sort()).toEqual(["acceptExtension", "endBlip", "giveFiles", "setOption", "setToolAgents"]);
  });

  it.each(shaped)("%s refuses a body that does not fit its schema, with the table's line", async (name) => {
    const answer = await fetch(`http://127.0.0.1:${port}${v1Path(name, SAMPLE as never)}`, {
      method: V1_ROUTES[name].method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: "[]",
    });
    const expected = checkV1Body(name, []);
    expect(expected.ok).toBe(false);
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 400,
      body: { error: (expected as { error: string }).error },
    });
  });

  it("answers a path outside the table 404", async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/v1/nothing-here`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).toBe(404);
  });
});
