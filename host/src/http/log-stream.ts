/**
 * `GET /v1/logs[?extension=<id>]`: the runtime's logs and status changes as they happen, one
 * JSON object per line (NDJSON), behind the same guards as every route. The answer starts with
 * the bus's backlog, then follows live; a heartbeat line every few seconds lets a client notice
 * a host that went away. A client that reads too slowly is dropped (its buffer is bounded): the
 * host never waits for it; the backlog, its first answer, goes with backpressure
 * (slow-client.ts). At shutdown every stream is ended.
 */
import type { Request, Response } from "express";
import { queryOf } from "./hook-route.js";
import type { HostEvents, LogStreamEvent } from "../events/index.js";
import { HttpError, writeWithBackpressure, type SlowClientWriter } from "../support/http/index.js";

/** A heartbeat line is written this often when nothing else is. Clients give up after 3 missed. */
export const HEARTBEAT_MS = 10_000;
/** Bytes a client may leave unread before it is dropped. */
export const MAX_UNREAD_BYTES = 1024 * 1024;

export interface LogStreamOptions {
  /** The host's event bus, whose `log` and `status` events are streamed. */
  bus: HostEvents;
  heartbeatMs?: number;
  maxUnreadBytes?: number;
  log: (level: "warn", message: string) => void;
}

/** The `?extension=` value: undefined for every extension. */
function extensionOf(req: Request): string | undefined {
  const values = queryOf(req).getAll("extension");
  if (values.length === 0) return undefined;
  if (values.length > 1 || values[0] === "" || values[0].length > 200) {
    throw new HttpError(
      400,
      "?extension should be one extension id, like ?extension=com.example.ci (leave it out for every extension)",
    );
  }
  return values[0];
}

/**
 * The open streams and the route that opens them.
 *
 * @example
 * const streams = new LogStreams({ bus, log });
 * app.get("/v1/logs", streams.route);
 * // at shutdown:
 * streams.closeAll();
 */
export class LogStreams {
  private readonly open = new Set<() => void>();

  constructor(private readonly options: LogStreamOptions) {}

  /** How many clients are streaming now. */
  get size(): number {
    return this.open.size;
  }

  /** Ends every stream (the host is stopping). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }

  readonly route = (req: Request, res: Response): void => {
    const extensionId = extensionOf(req);
    const { bus, heartbeatMs = HEARTBEAT_MS, maxUnreadBytes = MAX_UNREAD_BYTES } = this.options;
    res.status(200).set({
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    if (req.method === "HEAD") return void res.end();
    res.flushHeaders();

    let finished = false;
    const line = (event: LogStreamEvent | { type: "heartbeat"; at: string }) => `${JSON.stringify(event)}\n`;
    let out: SlowClientWriter | undefined;
    const write = (event: LogStreamEvent | { type: "heartbeat"; at: string }): void => {
      if (!finished) out?.write(line(event));
    };
    const subscription = bus.follow(extensionId, write);
    const heartbeat = setInterval(() => write({ type: "heartbeat", at: new Date().toISOString() }), heartbeatMs);
    heartbeat.unref();
    const stop = (cut: boolean): void => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      out?.dispose();
      subscription.dispose();
      this.open.delete(end);
      if (cut) res.destroy();
      else res.end();
    };
    const end = () => stop(false);
    this.open.add(end);
    res.on("close", () => stop(true));
    // The backlog is the first answer: sent whole however large (up to 100 lines of 8 KB each).
    out = writeWithBackpressure(res, subscription.backlog.map(line).join(""), {
      maxUnreadBytes,
      drop: () => {
        this.options.log(
          "warn",
          `dropped a log stream client${extensionId ? ` of ${extensionId}` : ""}: it left over ${maxUnreadBytes} bytes unread`,
        );
        stop(true);
      },
    });
  };
}
