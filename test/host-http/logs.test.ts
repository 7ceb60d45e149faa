/**
 * `GET /v1/logs`: the runtime's logs and status changes as NDJSON, on a real loopback server —
 * guarded like every route, backlog first, live after, heartbeats, a slow client dropped
 * without holding anyone up, and every stream ended at shutdown.
 */
import { request, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_UNREAD_BYTES, startHttpServer, type RunningHttpServer } from "../../host/src/http/index.js";
import { DEFAULT_BACKLOG, HostEvents } from "../../host/src/events/index.js";
import { BlipStore } from "../../host/src/store/index.js";
import { recordingHooks } from "./harness.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Server {
  server: RunningHttpServer;
  hub: HostEvents;
  logs: string[];
}

async function start(options: { heartbeatMs?: number } = {}): Promise<Server> {
  const dir = await mkdtemp(join(tmpdir(), "svc-logs-"));
  const logs: string[] = [];
  const log = (level: string, message: string) => void logs.push(`${level}: ${message}`);
  const store = await BlipStore.open(join(dir, "blips.json"), { log, saveDelayMs: 20 });
  const hub = new HostEvents();
  const server = await startHttpServer({
    store,
    hooks: recordingHooks(),
    port: 0,
    log,
    events: hub,
    ...(options.heartbeatMs ? { logHeartbeatMs: options.heartbeatMs } : {}),
  });
  cleanup.push(
    () => rm(dir, { recursive: true, force: true }),
    () => store.dispose(),
    () => server.close(),
  );
  return { server, hub, logs };
}

interface Stream {
  status: number;
  headers: IncomingMessage["headers"];
  lines: any[];
  ended: Promise<void>;
  /** Resolves once `count` lines (heartbeats included) arrived. */
  lineCount(count: number): Promise<void>;
  close(): void;
}

/** Opens `path` with the server's token (unless `headers` replace it) and parses each line. */
function open(server: RunningHttpServer, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path, headers: { authorization: `Bearer ${server.token}`, ...headers } },
      (res) => {
        const lines: any[] = [];
        let buffered = "";
        const waiters = new Set<() => void>();
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffered += chunk;
          const parts = buffered.split("\n");
          buffered = parts.pop() ?? "";
          for (const part of parts) lines.push(JSON.parse(part));
          for (const wake of [...waiters]) wake();
        });
        const ended = new Promise<void>((done) => res.on("close", () => done()));
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          lines,
          ended,
          lineCount: (count) =>
            new Promise<void>((done, fail) => {
              const timer = setTimeout(
                () => fail(new Error(`only ${lines.length} of ${count} lines: ${JSON.stringify(lines)}`)),
                5000,
              );
              const check = () => {
                if (lines.length < count) return;
                clearTimeout(timer);
                waiters.delete(check);
                done();
              };
              waiters.add(check);
              check();
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const withoutTime = (line: Record<string, unknown>) => {
  const { at, ...rest } = line;
  expect(typeof at === "string" && !Number.isNaN(Date.parse(at))).toBe(true);
  return rest;
};

describe("GET /v1/logs guards", () => {
  it("needs the bearer token (401), refuses an Origin (403) and other methods (405)", async () => {
    const { server } = await start();
    const none = await fetch(`${server.url}/v1/logs`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    const wrong = await fetch(`${server.url}/v1/logs`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    const origin = await fetch(`${server.url}/v1/logs`, {
      headers: { authorization: `Bearer ${server.token}`, origin: "https://evil.example" },
    });
    expect(origin.status).toBe(403);
    expect([...origin.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
    const post = await fetch(`${server.url}/v1/logs`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("refuses an empty or repeated ?extension (400)", async () => {
    const { server } = await start();
    const auth = { authorization: `Bearer ${server.token}` };
    for (const query of ["?extension=", "?extension=a&extension=b"]) {
      const answer = await fetch(`${server.url}/v1/logs${query}`, { headers: auth });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toBe(
        "?extension should be one extension id, like ?extension=com.example.ci (leave it out for every extension)",
      );
    }
  });
});

describe("GET /v1/logs?extension=<id>", () => {
  it("streams that extension's logs and status changes as NDJSON, and nothing of others", async () => {
    const { server, hub } = await start();
    const stream = await open(server, "/v1/logs?extension=com.example.ci");
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    hub.publish({ type: "log", extensionId: "com.example.other", level: "info", message: "not mine" });
    hub.publish({ type: "log", level: "warn", message: "the runtime's own" });
    hub.publish({
      type: "log",
      extensionId: "com.example.ci",
      level: "warn",
      message: 'denied: fetch to x.example.com; to allow it, add "x.example.com" to svc.permissions.network',
    });
    hub.publish({ type: "status", extensionId: "com.example.ci", status: "idle", heapUsed: 1843200, cpuMs: 12 });
    await stream.lineCount(2);
    expect(stream.lines.map(withoutTime)).toEqual([
      {
        type: "log",
        extensionId: "com.example.ci",
        level: "warn",
        message: 'denied: fetch to x.example.com; to allow it, add "x.example.com" to svc.permissions.network',
      },
      { type: "status", extensionId: "com.example.ci", status: "idle", heapUsed: 1843200, cpuMs: 12 },
    ]);
    stream.close();
  });

  it("starts with the last 100 events of that extension (the 101st oldest is gone)", async () => {
    const { server, hub } = await start();
    for (let i = 1; i <= DEFAULT_BACKLOG + 1; i++)
      hub.publish({ type: "log", extensionId: "com.example.ci", level: "info", message: `line ${i}` });
    const stream = await open(server, "/v1/logs?extension=com.example.ci");
    await stream.lineCount(DEFAULT_BACKLOG);
    hub.publish({ type: "log", extensionId: "com.example.ci", level: "info", message: "live" });
    await stream.lineCount(DEFAULT_BACKLOG + 1);
    const messages = stream.lines.map((line) => line.message);
    expect(messages).toHaveLength(DEFAULT_BACKLOG + 1);
    expect(messages[0]).toBe("line 2");
    expect(messages.at(-2)).toBe(`line ${DEFAULT_BACKLOG + 1}`);
    expect(messages.at(-1)).toBe("live");
    stream.close();
  });

  it("sends a backlog larger than the unread limit whole to a client that starts reading late", async () => {
    const { server, hub, logs } = await start();
    // 100 lines of 8 K characters of 3 bytes each: ~2.4 MB, over the 1 MB the rule allows unread.
    const message = "語".repeat(8 * 1024);
    for (let i = 1; i <= DEFAULT_BACKLOG; i++)
      hub.publish({ type: "log", extensionId: "com.example.ci", level: "info", message: `${i} ${message}` });
    expect(DEFAULT_BACKLOG * Buffer.byteLength(message)).toBeGreaterThan(2 * MAX_UNREAD_BYTES);
    // It reads nothing until the backlog is written and a live line is waiting behind it.
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/v1/logs?extension=com.example.ci",
          headers: { authorization: `Bearer ${server.token}` },
        },
        (res) => resolve(res.pause()),
      );
      req.on("error", reject);
      req.end();
    });
    cleanup.push(async () => answer.destroy());
    await expect.poll(() => hub.followerCount).toBe(1);
    hub.publish({ type: "log", extensionId: "com.example.ci", level: "info", message: "live" });
    answer.setEncoding("utf8");
    let text = "";
    for await (const chunk of answer) {
      text += chunk;
      if (text.includes('"live"')) break;
    }
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.message.split(" ")[0])).toEqual([
      ...Array.from({ length: DEFAULT_BACKLOG }, (_, i) => String(i + 1)),
      "live",
    ]);
    expect(logs.filter((line) => line.includes("dropped"))).toEqual([]);
  });

  it("keeps exactly 100 when 100 came before", async () => {
    const { server, hub } = await start();
    for (let i = 1; i <= DEFAULT_BACKLOG; i++)
      hub.publish({ type: "log", extensionId: "com.example.ci", level: "info", message: `line ${i}` });
    const stream = await open(server, "/v1/logs?extension=com.example.ci");
    await stream.lineCount(DEFAULT_BACKLOG);
    expect(stream.lines[0].message).toBe("line 1");
    stream.close();
  });

  it("without ?extension streams every extension and the runtime's own lines", async () => {
    const { server, hub } = await start();
    hub.publish({ type: "log", level: "error", message: "runtime trouble" });
    const stream = await open(server, "/v1/logs");
    hub.publish({ type: "status", extensionId: "com.example.a", status: "crashed", error: "out of memory" });
    await stream.lineCount(2);
    expect(stream.lines.map(withoutTime)).toEqual([
      { type: "log", level: "error", message: "runtime trouble" },
      { type: "status", extensionId: "com.example.a", status: "crashed", error: "out of memory" },
    ]);
    stream.close();
  });

  it("writes a heartbeat line while nothing happens", async () => {
    const { server } = await start({ heartbeatMs: 50 });
    const stream = await open(server, "/v1/logs?extension=com.example.ci");
    await stream.lineCount(2);
    expect(stream.lines.slice(0, 2).map(withoutTime)).toEqual([{ type: "heartbeat" }, { type: "heartbeat" }]);
    stream.close();
  });

  it("drops a client that stops reading, without holding up the host or other clients", async () => {
    const { server, hub, logs } = await start();
    // A raw client that sends the request and then never reads a byte.
    const stalled = connect(server.port, "127.0.0.1");
    stalled.pause();
    stalled.write(
      `GET /v1/logs?extension=com.example.ci HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n\r\n`,
    );
    const stalledClosed = new Promise<void>((done) => stalled.on("close", () => done()));
    const reader = await open(server, "/v1/logs?extension=com.example.ci");
    await expect.poll(() => hub.followerCount).toBe(2);

    // 12 MB in bursts of 256 KB, a turn of the event loop apart (as runtime lines arrive).
    const message = "x".repeat(8 * 1024);
    const total = Math.ceil((MAX_UNREAD_BYTES * 12) / message.length);
    let longestBurstMs = 0;
    for (let sent = 0; sent < total;) {
      const started = performance.now();
      for (let i = 0; i < 32 && sent < total; i++, sent++)
        hub.publish({ type: "log", extensionId: "com.example.ci", level: "debug", message });
      longestBurstMs = Math.max(longestBurstMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Publishing never waits for a client.
    expect(longestBurstMs).toBeLessThan(100);
    await expect
      .poll(() =>
        logs.some((line) =>
          line.includes("dropped a log stream client of com.example.ci: it left over 1048576 bytes unread"),
        ),
      )
      .toBe(true);
    stalled.destroy();
    await stalledClosed;

    // The reading client got everything.
    await reader.lineCount(total);
    expect(hub.followerCount).toBe(1);
    reader.close();
  });

  it("ends every stream at shutdown, promptly", async () => {
    const { server, hub } = await start();
    const stream = await open(server, "/v1/logs?extension=com.example.ci");
    await expect.poll(() => hub.followerCount).toBe(1);
    const started = performance.now();
    await server.close();
    await stream.ended;
    // Typically a few ms; the bound only tells "ended by close" from "left to time out".
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(hub.followerCount).toBe(0);
  });
});
