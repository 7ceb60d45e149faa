import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket as ServerSocket } from "ws";
import type { AddressInfo } from "node:net";
import { createCapabilities } from "./index.js";
import type { Resolver } from "./address-guard.js";
import type { WebSocketPush } from "./websocket.js";
import { createTestContext, type TestContext } from "./test-context.js";

const MB = 1024 * 1024;
const resolve: Resolver = async (host) => {
  if (host === "rebind.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const caps = createCapabilities({ resolve, limits: { wsOpenSockets: 2 } });
const op = (name: string, args: object) => caps.sync[name](args, t.cx);

let server: WebSocketServer;
let port: number;
const serverSockets: ServerSocket[] = [];
let t: TestContext;

beforeAll(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 4 * MB });
  await new Promise((r) => server.once("listening", r));
  port = (server.address() as AddressInfo).port;
  server.on("connection", (socket, request) => {
    serverSockets.push(socket);
    socket.on("message", (data, binary) => {
      const text = binary ? "" : data.toString();
      if (text.startsWith("big:")) socket.send(Buffer.alloc(Number(text.slice(4))), { binary: true });
      else if (text === "bye") socket.close(4001, "as asked");
      else socket.send(data, { binary });
    });
    if (request.url === "/hello") socket.send("hello");
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => t?.cleanup());

function pushes(): WebSocketPush[] {
  return t.pushes.filter((p) => p.kind === "ws").map((p) => p.data as WebSocketPush);
}

async function until(predicate: (events: WebSocketPush[]) => boolean): Promise<WebSocketPush[]> {
  for (let i = 0; i < 200; i++) {
    if (predicate(pushes())) return pushes();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out; pushes so far: ${JSON.stringify(pushes()).slice(0, 500)}`);
}
const has =
  (type: string, id = "1") =>
  (events: WebSocketPush[]) =>
    events.some((e) => e.type === type && e.socketId === id);

describe("WebSocket", () => {
  it("opens, exchanges text and binary messages and closes, all as ordered pushes", async () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    expect(op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/hello` })).toBeNull();
    await until(has("message"));
    op("ws.send", { socketId: 1, data: "ping" });
    op("ws.send", { socketId: 1, data: Buffer.from([1, 2, 3]).toString("base64"), binary: true });
    await until((e) => e.filter((x) => x.type === "message").length === 3);
    op("ws.close", { socketId: 1, code: 1000, reason: "done" });
    const events = await until(has("close"));
    expect(events).toEqual([
      { socketId: "1", type: "open", protocol: "", extensions: "" },
      { socketId: "1", type: "message", data: "hello", binary: false },
      { socketId: "1", type: "message", data: "ping", binary: false },
      { socketId: "1", type: "message", data: "AQID", binary: true },
      { socketId: "1", type: "close", code: 1000, reason: "done", wasClean: true },
    ]);
  });

  it("reports a close the server starts", async () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/` });
    await until(has("open"));
    op("ws.send", { socketId: 1, data: "bye" });
    expect((await until(has("close"))).at(-1)).toEqual({
      socketId: "1",
      type: "close",
      code: 4001,
      reason: "as asked",
      wasClean: true,
    });
  });

  it("red team: a host not in the list, a non-ws scheme and userinfo are denied synchronously", () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    expect(() => op("ws.open", { socketId: 1, url: "wss://evil.example/" })).toThrow(
      'WebSocket to evil.example denied: "evil.example" is not in permissions.network (add "evil.example" to svc.permissions.network in package.json)',
    );
    expect(() => op("ws.open", { socketId: 2, url: `http://127.0.0.1:${port}/` })).toThrow(
      "only ws and wss URLs are allowed",
    );
    expect(() => op("ws.open", { socketId: 3, url: `ws://127.0.0.1@evil.example/` })).toThrow("user name or password");
    expect(t.denials.map((d) => d.kind)).toEqual(["websocket", "websocket", "websocket"]);
  });

  it("red team: a listed name resolving to loopback is refused at connect time", async () => {
    t = createTestContext({ network: [`rebind.test:${port}`] });
    const before = serverSockets.length;
    op("ws.open", { socketId: 1, url: `ws://rebind.test:${port}/` });
    const events = await until(has("close"));
    expect(events[0]).toEqual({
      socketId: "1",
      type: "error",
      message: expect.stringContaining(
        'WebSocket to rebind.test denied: "rebind.test" resolves to 127.0.0.1, a loopback address',
      ),
    });
    expect(events[1]).toMatchObject({ type: "close", code: 1006, wasClean: false });
    expect(serverSockets.length).toBe(before);
  });

  it("a message of exactly 1 MB goes both ways; one byte more is refused", async () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/` });
    await until(has("open"));
    op("ws.send", { socketId: 1, data: "x".repeat(MB) });
    expect(() => op("ws.send", { socketId: 1, data: "x".repeat(MB + 1) })).toThrow(
      "WebSocket: message is over the limit of 1 MB (1048576 bytes)",
    );
    expect(() => op("ws.send", { socketId: 1, data: Buffer.alloc(MB + 1).toString("base64"), binary: true })).toThrow(
      "WebSocket: message is over the limit of 1 MB",
    );
    await until(has("message"));
    op("ws.send", { socketId: 1, data: `big:${MB}` });
    await until((e) => e.filter((x) => x.type === "message").length === 2);
    expect(Buffer.from((pushes()[2] as { data: string }).data, "base64").length).toBe(MB);
    op("ws.send", { socketId: 1, data: `big:${MB + 1}` });
    const events = await until(has("close"));
    expect(events.slice(-2)).toEqual([
      {
        socketId: "1",
        type: "error",
        message: `WebSocket: a message from 127.0.0.1:${port} is over the limit of 1 MB (1048576 bytes)`,
      },
      { socketId: "1", type: "close", code: 1009, reason: "", wasClean: false },
    ]);
  });

  it("allows the configured number of open sockets and refuses one more", async () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/` });
    op("ws.open", { socketId: 2, url: `ws://127.0.0.1:${port}/` });
    expect(() => op("ws.open", { socketId: 3, url: `ws://127.0.0.1:${port}/` })).toThrow(
      "WebSocket: 2 sockets are already open; close one first",
    );
    await until((e) => has("open", "1")(e) && has("open", "2")(e));
    op("ws.close", { socketId: 1 });
    await until(has("close", "1"));
    expect(op("ws.open", { socketId: 3, url: `ws://127.0.0.1:${port}/` })).toBeNull();
    await until(has("open", "3"));
  });

  it("disposing the sandbox closes its sockets", async () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/` });
    await until(has("open"));
    const serverSide = serverSockets.at(-1)!;
    const closed = new Promise((r) => serverSide.once("close", r));
    t.dispose();
    await closed;
    await until(has("close"));
  });

  it("rejects bad arguments", () => {
    t = createTestContext({ network: [`127.0.0.1:${port}`] });
    expect(() => op("ws.open", { socketId: 1 })).toThrow('ws.open: "url" should be a string');
    expect(() => op("ws.open", { socketId: 1, url: `ws://127.0.0.1:${port}/`, protocols: ["a b"] })).toThrow(
      'WebSocket: "a b" is not a valid subprotocol',
    );
    expect(() => op("ws.send", { socketId: 9, data: "x" })).toThrow("WebSocket: the socket is not open");
    expect(() => op("ws.close", { socketId: 9, code: 1001 })).toThrow("close code should be 1000 or from 3000 to 4999");
    expect(() => op("ws.close", { socketId: 9, reason: "é".repeat(62) })).toThrow(
      "close reason should be at most 123 bytes",
    );
  });
});
