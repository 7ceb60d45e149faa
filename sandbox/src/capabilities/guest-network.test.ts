/**
 * The guest classes (guest/fetch.ts, guest/websocket.ts) running in a real QuickJS-ng
 * interpreter, talking through a minimal bridge to the real host handlers and real servers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";
import type { AddressInfo } from "node:net";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { baseVariant as variant } from "../engine/instance.js";
import { createCapabilities } from "./index.js";
import { createTestContext, startHttpServer, type TestContext, type TestServer } from "./test-context.js";

const guest = (file: string) => fileURLToPath(new URL(`../../guest/${file}`, import.meta.url));

/** The bundle under test, with a stand-in for the prelude's bridge and URL. */
const ENTRY = `
import { installEvents } from ${JSON.stringify(guest("events.ts"))};
import { install as installFetch } from ${JSON.stringify(guest("fetch.ts"))};
import { install as installWebSocket } from ${JSON.stringify(guest("websocket.ts"))};
installEvents();
globalThis.URL = class URL {
  constructor(input) {
    const record = JSON.parse(__host_url(String(input)));
    if (!record) throw new TypeError("Invalid URL");
    Object.assign(this, record);
  }
};
const pending = new Map();
const handlers = new Map();
let nextId = 0;
const bridge = {
  call(op, args) {
    const id = ++nextId;
    __host_call(id, op, JSON.stringify(args ?? null));
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  },
  callSync(op, args) {
    const reply = JSON.parse(__host_callSync(op, JSON.stringify(args ?? null)));
    if (!reply.ok) throw new (globalThis[reply.name] ?? Error)(reply.message);
    return reply.value;
  },
  on(kind, handler) { handlers.set(kind, handler); },
};
globalThis.__dispatch = (kind, json) => {
  const data = JSON.parse(json);
  if (kind !== "reply") return handlers.get(kind)?.(data);
  const waiter = pending.get(data.id);
  pending.delete(data.id);
  if (data.ok) waiter.resolve(data.value);
  else waiter.reject(new (globalThis[data.name] ?? Error)(data.message));
};
installFetch(bridge);
installWebSocket(bridge);
`;

let bundle: string;
let module: QuickJSWASMModule;
let server: TestServer;
let wss: WebSocketServer;
let wsPort: number;
let t: TestContext;
let vm: QuickJSContext;
const caps = createCapabilities();
/** Sync ops the guest made, in order. */
let syncCalls: string[] = [];

beforeAll(async () => {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: guest("."), loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    target: "es2022",
  });
  bundle = out.outputFiles[0].text;
  module = await newQuickJSWASMModuleFromVariant(variant);
  server = await startHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/redirect") return void res.writeHead(302, { location: "/json" }).end();
      if (req.url === "/slow") return void res.writeHead(200).write("x");
      if (req.url === "/bytes") return void res.end(Buffer.from([0, 1, 2, 255]));
      res.writeHead(201, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"], "x-multi": "one" });
      res.end(
        JSON.stringify({
          method: req.method,
          body: Buffer.concat(chunks).toString(),
          type: req.headers["content-type"] ?? null,
          h: req.headers["x-test"] ?? null,
        }),
      );
    });
  });
  wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  wsPort = (wss.address() as AddressInfo).port;
  wss.on("connection", (socket) => socket.on("message", (data, binary) => socket.send(data, { binary })));
});
afterAll(async () => {
  await server.close();
  await new Promise((r) => wss.close(r));
});
afterEach(() => {
  vm?.dispose();
  t?.cleanup();
});

/** A fresh interpreter with the bundle loaded and its bridge wired to the capabilities. */
function boot(network: string[]): void {
  t = createTestContext({ network });
  syncCalls = [];
  vm = module.newContext();
  const dispatch = (kind: string, data: unknown) => {
    if (!vm.alive) return;
    const fn = vm.getProp(vm.global, "__dispatch");
    const args = [vm.newString(kind), vm.newString(JSON.stringify(data))];
    const result = vm.callFunction(fn, vm.undefined, ...args);
    args.forEach((a) => a.dispose());
    fn.dispose();
    if (result.error) result.error.dispose();
    else result.value.dispose();
    vm.runtime.executePendingJobs();
  };
  t.cx.push = (kind, data) => dispatch(kind, data);
  const errorRecord = (e: unknown) => ({ ok: false, name: (e as Error).name, message: (e as Error).message });
  const define = (name: string, fn: (...args: string[]) => string | void) => {
    const handle = vm.newFunction(name, (...handles) => {
      const out = fn(...handles.map((h) => vm.dump(h)));
      return out === undefined ? vm.undefined : vm.newString(out);
    });
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  };
  define("__host_url", (input) => {
    try {
      const u = new URL(input);
      return JSON.stringify({
        href: u.href,
        protocol: u.protocol,
        hash: u.hash,
        username: u.username,
        password: u.password,
        host: u.host,
      });
    } catch {
      return "null";
    }
  });
  define("__host_callSync", (op, json) => {
    syncCalls.push(op);
    try {
      return JSON.stringify({ ok: true, value: caps.sync[op](JSON.parse(json), t.cx) ?? null });
    } catch (e) {
      return JSON.stringify(errorRecord(e));
    }
  });
  define("__host_call", (id, op, json) => {
    Promise.resolve()
      .then(() => caps.async[op](JSON.parse(json), t.cx))
      .then(
        (value) => dispatch("reply", { id, ok: true, value: value ?? null }),
        (e) => dispatch("reply", { id, ...errorRecord(e) }),
      );
  });
  vm.unwrapResult(vm.evalCode(bundle)).dispose();
}

/** Runs an async guest function body; resolves with its JSON result. */
async function run(body: string): Promise<any> {
  vm.unwrapResult(
    vm.evalCode(`globalThis.__done = undefined; (async () => { ${body} })().then(
    (v) => { globalThis.__done = JSON.stringify({ ok: true, v: v === undefined ? null : v }); },
    (e) => { globalThis.__done = JSON.stringify({ ok: false, e: String(e && e.name) + ": " + String(e && e.message) }); });`),
  ).dispose();
  for (let i = 0; i < 500; i++) {
    vm.runtime.executePendingJobs();
    const done = vm.getProp(vm.global, "__done");
    const text = vm.dump(done);
    done.dispose();
    if (typeof text === "string") {
      const result = JSON.parse(text);
      if (!result.ok) throw new Error(result.e);
      return result.v;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("guest code did not finish");
}

describe("guest fetch in QuickJS", () => {
  it("sends method, headers and body; reads status, headers, json, url and redirected", async () => {
    boot([`127.0.0.1:${server.port}`]);
    const out = await run(`
      const r = await fetch(${JSON.stringify(server.url("/echo"))}, { method: "post", body: "héllo", headers: { "X-Test": "1" } });
      return { status: r.status, ok: r.ok, statusText: r.statusText, url: r.url, redirected: r.redirected, type: r.type,
        cookies: r.headers.getSetCookie(), ct: r.headers.get("Content-Type"), keys: [...r.headers.keys()].filter(k => k.startsWith("x") || k === "set-cookie"),
        body: await r.json(), used: r.bodyUsed };`);
    expect(out).toEqual({
      status: 201,
      ok: true,
      statusText: "Created",
      url: server.url("/echo"),
      redirected: false,
      type: "basic",
      cookies: ["a=1", "b=2"],
      ct: "application/json",
      keys: ["set-cookie", "set-cookie", "x-multi"],
      body: { method: "POST", body: "héllo", type: "text/plain;charset=UTF-8", h: "1" },
      used: true,
    });
  });

  it("follows redirects (checked), reports redirected, and offers manual and error modes", async () => {
    boot([`127.0.0.1:${server.port}`]);
    const out = await run(`
      const a = await fetch(${JSON.stringify(server.url("/redirect"))});
      const b = await fetch(${JSON.stringify(server.url("/redirect"))}, { redirect: "manual" });
      let c; try { await fetch(${JSON.stringify(server.url("/redirect"))}, { redirect: "error" }); } catch (e) { c = e.name; }
      return [a.redirected, a.url, b.status, b.headers.get("location"), c];`);
    expect(out).toEqual([true, server.url("/json"), 302, "/json", "TypeError"]);
  });

  it("bytes, arrayBuffer, clone, and a body read twice", async () => {
    boot([`127.0.0.1:${server.port}`]);
    const out = await run(`
      const r = await fetch(${JSON.stringify(server.url("/bytes"))});
      const copy = r.clone();
      const bytes = [...(await r.bytes())];
      const view = [...new Uint8Array(await copy.arrayBuffer())];
      let again; try { await r.text(); } catch (e) { again = e.message; }
      return { bytes, view, again };`);
    expect(out).toEqual({
      bytes: [0, 1, 2, 255],
      view: [0, 1, 2, 255],
      again: "Body is unusable: Body has already been read",
    });
  });

  it("a denial rejects with the denial's message", async () => {
    boot([`127.0.0.1:${server.port}`]);
    await expect(run(`await fetch("https://evil.example/")`)).rejects.toThrow(
      'Error: fetch to evil.example denied: "evil.example" is not in permissions.network (add "evil.example" to svc.permissions.network in package.json)',
    );
  });

  it("aborting the signal rejects with AbortError and cancels the host request", async () => {
    boot([`127.0.0.1:${server.port}`]);

    const out = await run(`
      const controller = new AbortController();
      const pending = fetch(${JSON.stringify(server.url("/slow"))}, { signal: controller.signal });
      await null;
      controller.abort();
      try { await pending; return "resolved"; } catch (e) { return e.name; }`);
    expect(out).toBe("AbortError");
    expect(syncCalls).toContain("fetch.abort");
  });

  it("Headers, Request and Response behave as on the web", async () => {
    boot([]);
    const out = await run(`
      const h = new Headers([["A", "1"], ["a", "2"], ["B", " x "]]);
      let bad; try { h.set("bad name", "v"); } catch (e) { bad = e.name; }
      const res = Response.json({ ok: 1 }, { status: 202 });
      let nullBody; try { new Response("x", { status: 204 }); } catch (e) { nullBody = e.name; }
      let getBody; try { new Request("http://a.example/", { body: "x" }); } catch (e) { getBody = e.name; }
      const req = new Request("http://a.example/p", { method: "patch", body: new Uint8Array([104, 105]) });
      return { entries: [...h], bad, status: res.status, ct: res.headers.get("content-type"), json: await res.json(),
        nullBody, getBody, method: req.method, text: await req.clone().text(), err: Response.error().type };`);
    expect(out).toEqual({
      entries: [
        ["a", "1, 2"],
        ["b", "x"],
      ],
      bad: "TypeError",
      status: 202,
      ct: "application/json",
      json: { ok: 1 },
      nullBody: "TypeError",
      getBody: "TypeError",
      method: "PATCH",
      text: "hi",
      err: "error",
    });
  });
});

describe("guest WebSocket in QuickJS", () => {
  it("opens, echoes text and binary, closes, with handlers and listeners", async () => {
    boot([`127.0.0.1:${wsPort}`]);
    const out = await run(`
      const log = [];
      const ws = new WebSocket("ws://127.0.0.1:${wsPort}/");
      log.push(ws.readyState);
      await new Promise((resolve) => {
        ws.onopen = () => { log.push("open", ws.readyState); ws.send("hi"); ws.send(new Uint8Array([1, 2])); };
        ws.addEventListener("message", (e) => {
          log.push(typeof e.data === "string" ? e.data : [...new Uint8Array(e.data)]);
          if (log.length === 5) ws.close(1000, "bye");
        });
        ws.onclose = (e) => { log.push(e.code, e.reason, e.wasClean, ws.readyState); resolve(); };
      });
      return log;`);
    expect(out).toEqual([0, "open", 1, "hi", [1, 2], 1000, "bye", true, 3]);
  });

  it("a denied URL throws from the constructor; a bad scheme is a SyntaxError", async () => {
    boot([`127.0.0.1:${wsPort}`]);
    const out = await run(`
      const errors = [];
      try { new WebSocket("wss://evil.example/"); } catch (e) { errors.push(e.message); }
      try { new WebSocket("ftp://127.0.0.1/"); } catch (e) { errors.push(e.name); }
      let early; const ws = new WebSocket("ws://127.0.0.1:${wsPort}/"); try { ws.send("x"); } catch (e) { early = e.name; }
      ws.close();
      return [errors, early];`);
    expect(out).toEqual([
      [
        'WebSocket to evil.example denied: "evil.example" is not in permissions.network (add "evil.example" to svc.permissions.network in package.json)',
        "SyntaxError",
      ],
      "InvalidStateError",
    ]);
  });
});
