/**
 * The live feed: one Server-Sent Events stream per window. A new stream gets a `snapshot`, then
 * every event with an increasing `id`. A reconnect that sends `Last-Event-ID` gets what it missed
 * from the backlog, or a fresh snapshot when that id is too old (or from an earlier host). A
 * heartbeat comment keeps proxies and the client's watchdog content; a client that leaves more
 * than `maxUnreadBytes` unread is dropped, so the host never waits for a slow page.
 * The first answer (snapshot or catch-up) goes with backpressure (support/http/slow-client.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { writeWithBackpressure, type SlowClientWriter } from "../support/http/index.js";
import type { Snapshot, UiEvent } from "./wire.js";

export const FEED_BACKLOG = 1000;
/** The backlog is also kept under this many bytes (an `extensions` event can be large). */
export const FEED_BACKLOG_BYTES = 4 * 1024 * 1024;
export const FEED_HEARTBEAT_MS = 15_000;
export const FEED_MAX_UNREAD_BYTES = 1024 * 1024;

export interface FeedOptions {
  snapshot: () => Snapshot;
  backlog?: number;
  heartbeatMs?: number;
  maxUnreadBytes?: number;
  log?: (message: string) => void;
}

/** One event as sent: its id and its frame. */
interface Numbered {
  id: number;
  text: string;
  bytes: number;
}

function frame(id: number, event: UiEvent): string {
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export class Feed {
  /** Ids restart from a random base at each launch, so an id from an earlier host never matches. */
  private lastId = Math.floor(Math.random() * 1e9) * 1000;
  private readonly backlog: Numbered[] = [];
  private backlogBytes = 0;
  private readonly clients = new Set<(text: string) => void>();
  private readonly closers = new Set<() => void>();

  constructor(private readonly options: FeedOptions) {}

  get size(): number {
    return this.clients.size;
  }

  publish(event: UiEvent): void {
    const id = ++this.lastId;
    const text = frame(id, event);
    const bytes = Buffer.byteLength(text);
    this.backlog.push({ id, text, bytes });
    this.backlogBytes += bytes;
    while (
      this.backlog.length > (this.options.backlog ?? FEED_BACKLOG) ||
      (this.backlogBytes > FEED_BACKLOG_BYTES && this.backlog.length > 1)
    )
      this.backlogBytes -= this.backlog.shift()!.bytes;
    for (const write of [...this.clients]) write(text);
  }

  /** What a client resuming after `lastSeen` must be sent. */
  private catchUp(lastSeen: string | undefined): string {
    const seen = lastSeen === undefined || !/^\d{1,16}$/.test(lastSeen) ? undefined : Number(lastSeen);
    const oldest = this.backlog[0]?.id ?? this.lastId + 1;
    if (seen !== undefined && seen >= oldest - 1 && seen <= this.lastId) {
      return this.backlog
        .filter((entry) => entry.id > seen)
        .map((entry) => entry.text)
        .join("");
    }
    return frame(this.lastId, { type: "snapshot", snapshot: this.options.snapshot() });
  }

  /** Serves one stream; the response stays open until the client leaves or `closeAll`. */
  serve(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
    const maxUnread = this.options.maxUnreadBytes ?? FEED_MAX_UNREAD_BYTES;
    res.writeHead(200, {
      ...headers,
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    });
    let finished = false;
    let out: SlowClientWriter | undefined;
    const write = (text: string): void => {
      if (!finished) out?.write(text);
    };
    const heartbeat = setInterval(() => write(": heartbeat\n\n"), this.options.heartbeatMs ?? FEED_HEARTBEAT_MS);
    heartbeat.unref();
    const stop = (cut: boolean): void => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      out?.dispose();
      this.clients.delete(write);
      this.closers.delete(end);
      if (cut) res.destroy();
      else res.end();
    };
    const end = () => stop(false);
    res.on("close", () => stop(true));
    this.closers.add(end);
    this.clients.add(write);
    out = writeWithBackpressure(
      res,
      `retry: 1000\n\n${this.catchUp(req.headers["last-event-id"] as string | undefined)}`,
      {
        maxUnreadBytes: maxUnread,
        drop: () => {
          this.options.log?.(`dropped a UI feed client: it left over ${maxUnread} bytes unread`);
          stop(true);
        },
      },
    );
  }

  closeAll(): void {
    for (const end of [...this.closers]) end();
  }
}
