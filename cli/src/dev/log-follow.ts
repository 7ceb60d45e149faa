/**
 * Follows the app's log stream (`GET /v1/logs?extension=<id>`) for `svckit dev`: reads
 * `webhook.json` afresh before every attempt (the app writes a new token at each launch),
 * reconnects with backoff when the app stops or restarts, notices a silent app by its missing
 * heartbeats, and never shows the same event twice across a reconnect. Each attempt goes through
 * the one client (@svc/runtime's app-client.ts): the port proves it is svc before the token goes.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { V1_ROUTES } from "@svc/api";
import { AppUnreachableError, openAppRequest } from "@svc/runtime";
import { readWebhookConfig, type WebhookConfig } from "../webhook-client.js";
import type { StreamEvent } from "./log-format.js";

/** What the follower is doing, for one line to the person when it changes. */
export type FollowState =
  { state: "connected"; port: number } | { state: "waiting"; reason: string } | { state: "lost" };

export interface FollowOptions {
  support: string;
  extensionId: string;
  signal: AbortSignal;
  onEvent(event: StreamEvent): void;
  onState(state: FollowState): void;
  /** First wait before trying again; doubles up to `maxDelayMs`. Defaults 250 ms / 5 s. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** No byte for this long means the app is gone (three missed 10 s heartbeats). Default 35 s. */
  silenceMs?: number;
}

/** Remembers the last events shown, so the backlog replayed after a reconnect is not shown again. */
class Seen {
  private readonly order: string[] = [];
  private readonly keys = new Set<string>();
  constructor(private readonly limit = 500) {}
  /** True the first time `key` comes. */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    this.order.push(key);
    if (this.order.length > this.limit) this.keys.delete(this.order.shift()!);
    return true;
  }
}

/** Why the app could not be reached, in the words of a "waiting" line. */
function unreachable(error: Error): Error {
  if (error instanceof AppUnreachableError && error.reason === "refused")
    return new Error(`nothing answers on 127.0.0.1:${error.port}`);
  return error;
}

/** One attempt: resolves when the stream ends, rejects with why it could not start. */
async function streamOnce(
  config: WebhookConfig,
  options: FollowOptions,
  onOpen: () => void,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const silenceMs = options.silenceMs ?? 35_000;
  const path = `${V1_ROUTES.logs.path}?extension=${encodeURIComponent(options.extensionId)}`;
  // The one client: the proof first, then the token. Until the stream's first bytes the client's
  // own deadline holds (at least the proof's 5 s); from then on the heartbeat's silence rule.
  const opened = await openAppRequest(config, V1_ROUTES.logs.method, path, {
    signal: options.signal,
    timeoutMs: Math.max(silenceMs, 5_000),
  }).catch((error: Error) => {
    throw unreachable(error);
  });
  opened.stopDeadline();
  const res = opened.answer;
  return new Promise((resolve, reject) => {
    let silence: NodeJS.Timeout | undefined;
    const quiet = () => {
      clearTimeout(silence);
      silence = setTimeout(() => res.destroy(new Error("the app stopped answering (no heartbeat)")), silenceMs);
    };
    const abort = () => res.destroy();
    options.signal.addEventListener("abort", abort, { once: true });
    const done = (error?: Error) => {
      clearTimeout(silence);
      options.signal.removeEventListener("abort", abort);
      if (error) reject(error);
      else resolve();
    };
    if (res.statusCode !== 200) {
      res.resume();
      const why = res.statusCode === 401 ? "webhook.json holds an older token" : `the app answered ${res.statusCode}`;
      return done(new Error(why));
    }
    onOpen();
    quiet();
    let buffered = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      quiet();
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        try {
          onEvent(JSON.parse(line) as StreamEvent);
        } catch {
          // A line we cannot read is skipped; the next one may be fine.
        }
      }
    });
    res.on("close", () => done());
    res.on("error", () => done());
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Follows until `signal` aborts; resolves then. Never rejects: every failure is a state and a
 * later attempt.
 *
 * @example
 * await followLogs({ support, extensionId: "com.ann.deploys", signal,
 *   onEvent: (event) => print(formatEvent(event, paint)), onState: (s) => say(s) });
 */
export async function followLogs(options: FollowOptions): Promise<void> {
  const { minDelayMs = 250, maxDelayMs = 5000 } = options;
  const seen = new Seen();
  let delay = minDelayMs;
  let connected = false;
  while (!options.signal.aborted) {
    try {
      // Said plainly here: readWebhookConfig's own message is written for a one-shot command.
      if (!existsSync(join(options.support, "webhook.json")))
        throw new Error(`no webhook.json in ${options.support} yet`);
      const config = await readWebhookConfig(options.support);
      await streamOnce(
        config,
        options,
        () => {
          connected = true;
          delay = minDelayMs;
          options.onState({ state: "connected", port: config.port });
        },
        (event) => {
          if (event.type === "heartbeat" || seen.add(JSON.stringify(event))) options.onEvent(event);
        },
      );
      if (connected && !options.signal.aborted) options.onState({ state: "lost" });
    } catch (error) {
      if (connected) options.onState({ state: "lost" });
      options.onState({ state: "waiting", reason: (error as Error).message });
    }
    connected = false;
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}
