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
