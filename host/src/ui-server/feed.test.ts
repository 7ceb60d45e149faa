import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Feed } from "./feed.js";
import type { Snapshot } from "./wire.js";

const snapshot = (): Snapshot => ({
  blips: [],
  extensions: [],
  settings: {
    openOn: "hover",
    hoverDelayMs: 300,
    display: "primary",
    hideInFullscreen: true,
    reduceMotion: "system",
    workingHours: null,
    mayPop: {},
  },
  paused: false,
  onBattery: false,
  secretsAvailable: true,
});

let server: Server | undefined;
afterEach(() => server?.close());

async function serve(feed: Feed): Promise<number> {
  server = createServer((req, res) => feed.serve(req, res, {}));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** Reads the stream until `count` events arrived. */
async function read(port: number, count: number, lastId?: string): Promise<{ id: string; event: string }[]> {
  const controller = new AbortController();
  const answer = await fetch(`http://127.0.0.1:${port}/`, {
    headers: lastId ? { "Last-Event-ID": lastId } : {},
    signal: controller.signal,
  });
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const events: { id: string; event: string }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    events.length = 0;
    for (const match of text.matchAll(/id: (\d+)\nevent: (\w+)\n/g)) events.push({ id: match[1], event: match[2] });
  }
  controller.abort();
  return events;
}

describe("Feed", () => {
  it("starts with a snapshot, resumes after Last-Event-ID without loss or repeat, and sends a snapshot when too far behind", async () => {
    const feed = new Feed({ snapshot, backlog: 3 });
    const port = await serve(feed);
    const [first] = await read(port, 1);
    expect(first.event).toBe("snapshot");
    feed.publish({ type: "paused", paused: true });
    feed.publish({ type: "paused", paused: false });
    const resumed = await read(port, 2, first.id);
    expect(resumed.map((e) => [Number(e.id) - Number(first.id), e.event])).toEqual([
      [1, "paused"],
      [2, "paused"],
    ]);
    for (let i = 0; i < 4; i++) feed.publish({ type: "paused", paused: false });
    // first.id + 1 left the backlog of 3: a fresh snapshot, with the newest id.
    const behind = await read(port, 1, first.id);
    expect(behind[0]).toEqual({ id: String(Number(first.id) + 6), event: "snapshot" });
    // an id from an earlier host (never handed out here): a snapshot too.
    expect((await read(port, 1, "12"))[0].event).toBe("snapshot");
  });

  it("sends a heartbeat comment while nothing happens", async () => {
    const feed = new Feed({ snapshot, heartbeatMs: 50 });
    const port = await serve(feed);
    const controller = new AbortController();
    const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: controller.signal });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": heartbeat\n\n")) text += (await reader.read()).value;
    controller.abort();
    expect(text.startsWith("retry: 1000\n\nid: ")).toBe(true);
  });

  it("sends a first snapshot larger than the unread limit whole, with what was published meanwhile, and still drops a client that stops reading later", async () => {
    const dropped: string[] = [];
    const limit = 64 * 1024;
    // 600 blips of ~2 KB: a snapshot four times the limit (the 1.3 MB against 1 MB, scaled).
    const blips = Array.from({ length: 600 }, (_, i) => ({
      id: `com.example.many/b${i}`,
      seq: 1,
      source: "extension" as const,
      ended: false,
      title: "x".repeat(400),
    }));
    const big = (): Snapshot => ({ ...snapshot(), blips });
    expect(JSON.stringify(big()).length).toBeGreaterThan(4 * limit);
    const feed = new Feed({ snapshot: big, maxUnreadBytes: limit, log: (m) => dropped.push(m) });
    const port = await serve(feed);
    const controller = new AbortController();
    const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: controller.signal });
    await expect.poll(() => feed.size).toBe(1);
    // Published while the snapshot is still on its way: held, then sent after it, in order.
    feed.publish({ type: "paused", paused: true });
    feed.publish({ type: "paused", paused: false });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while ((text.match(/\nevent: /g) ?? []).length < 3) text += (await reader.read()).value;
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => [m[1], m[2].length]);
    expect(events.map(([name]) => name)).toEqual(["snapshot", "paused", "paused"]);
    expect(JSON.parse(text.split("data: ")[1].split("\n")[0]).snapshot.blips).toHaveLength(600);
    expect(feed.size).toBe(1);
    expect(dropped).toEqual([]);
    // Now it stops reading: later events pile up past the limit and it is cut.
    const note = "y".repeat(64 * 1024);
    for (let i = 0; i < 400 && feed.size > 0; i++) {
      feed.publish({ type: "notify", title: note });
      await new Promise((r) => setImmediate(r));
    }
    controller.abort();
    expect(feed.size).toBe(0);
    expect(dropped).toEqual([`dropped a UI feed client: it left over ${limit} bytes unread`]);
  });

  it("drops a client that never reads its first snapshot once what waits behind it passes the limit", async () => {
    const dropped: string[] = [];
    const limit = 64 * 1024;
    // 20 MB: more than the kernel's socket buffers on both ends take, so it is still on its way.
    const blips = Array.from({ length: 2000 }, (_, i) => ({
      id: `com.example.many/b${i}`,
      seq: 1,
      source: "extension" as const,
      ended: false,
      title: "x".repeat(10_000),
    }));
    const feed = new Feed({
      snapshot: () => ({ ...snapshot(), blips }),
      maxUnreadBytes: limit,
      log: (m) => dropped.push(m),
    });
    const port = await serve(feed);
    const answer = await fetch(`http://127.0.0.1:${port}/`); // never read
    expect(answer.status).toBe(200);
    await expect.poll(() => feed.size).toBe(1);
    const note = "y".repeat(limit / 4);
    feed.publish({ type: "notify", title: note });
    feed.publish({ type: "notify", title: note });
    feed.publish({ type: "notify", title: note });
    expect(feed.size).toBe(1);
    feed.publish({ type: "notify", title: note });
    expect(feed.size).toBe(0);
    expect(dropped).toEqual([`dropped a UI feed client: it left over ${limit} bytes unread`]);
  });

  it("drops a client that leaves too much unread", async () => {
    const dropped: string[] = [];
    const feed = new Feed({ snapshot, maxUnreadBytes: 64 * 1024, log: (m) => dropped.push(m) });
    const port = await serve(feed);
    const answer = await fetch(`http://127.0.0.1:${port}/`); // never read
    expect(answer.status).toBe(200);
    await expect.poll(() => feed.size).toBe(1);
    const big = "x".repeat(64 * 1024);
    for (let i = 0; i < 200 && feed.size > 0; i++) {
      feed.publish({ type: "notify", title: big });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(feed.size).toBe(0);
    expect(dropped[0]).toBe("dropped a UI feed client: it left over 65536 bytes unread");
  });
});
