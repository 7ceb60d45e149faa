/**
 * A Server-Sent Events reader over `fetch`, since `EventSource` cannot send the session header.
 * `SseParser` is the pure part (text in, events out); `followFeed` reconnects with
 * `Last-Event-ID`, so the server sends what was missed (or a fresh snapshot).
 */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  /** The last id seen, for Last-Event-ID. */
  lastId: string | undefined;
  /** A `retry:` field, in ms. */
  retryMs: number | undefined;

  /** Feeds a chunk; returns the complete messages it finished. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (this.data.length > 0)
          out.push({
            event: this.event || "message",
            data: this.data.join("\n"),
            ...(this.id === undefined ? {} : { id: this.id }),
          });
        this.data = [];
        this.event = "";
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") this.data.push(value);
      else if (field === "event") this.event = value;
      else if (field === "id" && !value.includes("\0")) this.lastId = this.id = value;
      else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    return out;
  }
}

export interface FeedOptions {
  url: string;
  headers: () => Record<string, string>;
  onMessage: (message: SseMessage) => void;
  /** Connected (true) or lost (false). */
  onState: (connected: boolean) => void;
  /** Called on 401: the session is gone; no reconnect. */
  onUnauthorized: (message: string) => void;
  /**
   * Called once nothing answers at all {@link GONE_AFTER} times in a row (the host stopped; a new
   * one takes a new port and new tickets, so this page can never come back); no reconnect.
   */
  onGone?: () => void;
}

/** Refused connections in a row (about a second apart) that mean the host is gone. */
export const GONE_AFTER = 3;

/** Follows the feed until `stop()`; reconnects after a drop, resuming from the last id. */
export function followFeed(options: FeedOptions): { stop(): void; reconnect(): void } {
  let lastId: string | undefined;
  let retryMs = 1000;
  let stopped = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let refused = 0;

  const connect = async (): Promise<void> => {
    controller = new AbortController();
    const parser = new SseParser();
    try {
      let answer: Response;
      try {
        answer = await fetch(options.url, {
          headers: {
            ...options.headers(),
            Accept: "text/event-stream",
            ...(lastId ? { "Last-Event-ID": lastId } : {}),
          },
          signal: controller.signal,
          cache: "no-store",
        });
      } catch (error) {
        // Nothing answered (not our own abort): count it.
        if (!controller.signal.aborted && ++refused >= GONE_AFTER && options.onGone) {
          stopped = true;
          options.onState(false);
          return options.onGone();
        }
        throw error;
      }
      refused = 0;
      if (answer.status === 401) {
        const body = (await answer.json().catch(() => ({}))) as { error?: string };
        stopped = true;
        return options.onUnauthorized(body.error ?? "the session ended");
      }
      if (!answer.ok || !answer.body) throw new Error(`HTTP ${answer.status}`);
      options.onState(true);
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const message of parser.push(value)) {
          if (message.id !== undefined) lastId = message.id;
          options.onMessage(message);
        }
        if (parser.retryMs !== undefined) retryMs = parser.retryMs;
      }
    } catch {
      // Dropped or refused: try again below.
    }
    if (stopped) return;
    options.onState(false);
    timer = setTimeout(() => void connect(), retryMs);
  };
  void connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    },
    /** Drops the connection now (it comes back by itself). */
    reconnect() {
      controller?.abort();
    },
  };
}
