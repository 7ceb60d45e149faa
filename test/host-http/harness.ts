/**
 * A real HTTP server on loopback for the tests, with a real blip store in a temp support
 * folder, a hook target that records what it was given, and clients that speak real HTTP:
 * `call` through node's fetch, `raw` as bytes on a socket (for what fetch will not send).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import {
  startHttpServer,
  type HookDelivery,
  type HookTarget,
  type RunningHttpServer,
} from "../../host/src/http/index.js";
import { BlipStore } from "../../host/src/store/index.js";
import { supportPaths, type SupportPaths } from "../../host/src/support/index.js";
import type { GivenFiles } from "../../host/src/tools/index.js";

export interface RecordingHooks extends HookTarget {
  deliveries: HookDelivery[];
  /** Extension id → what `status` answers; others are unknown. */
  extensions: Map<string, "ok" | "no-webhook">;
  /** Replaces delivery (to throw or reject); default records only. */
  onDeliver?: (delivery: HookDelivery) => void | Promise<unknown>;
}

export function recordingHooks(): RecordingHooks {
  const hooks: RecordingHooks = {
    deliveries: [],
    extensions: new Map([
      ["com.example.ci", "ok"],
      ["com.example.quiet", "no-webhook"],
    ]),
    status: (id) => hooks.extensions.get(id) ?? "unknown",
    deliver: (delivery) => {
      hooks.deliveries.push(delivery);
      return hooks.onDeliver?.(delivery);
    },
  };
  return hooks;
}

export interface Harness {
  dir: string;
  paths: SupportPaths;
  store: BlipStore;
  hooks: RecordingHooks;
  server: RunningHttpServer;
  logs: string[];
  /** A request with the right token (unless `headers` overrides it); asserts no CORS header. */
  call(
    method: string,
    path: string,
    init?: { body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** Raw bytes to the server; returns the parsed answer. */
  raw(text: string | Uint8Array): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

function assertNoCors(headers: Record<string, string>): void {
  expect(Object.keys(headers).filter((name) => name.toLowerCase().startsWith("access-control-"))).toEqual([]);
}

/** Starts a server (port 0 unless given) with a store in a fresh temp folder. */
export async function startHarness(
  options: { port?: number; dir?: string; givenFiles?: GivenFiles } = {},
): Promise<Harness> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "svc-http-")));
  const paths = supportPaths(dir);
  const logs: string[] = [];
  const log = (level: string, message: string) => void logs.push(`${level}: ${message}`);
  const store = await BlipStore.open(paths.blipsFile, { log, saveDelayMs: 20 });
  const hooks = recordingHooks();
  const server = await startHttpServer({
    store,
    hooks,
    port: options.port ?? 0,
    webhookFile: paths.webhookFile,
    version: "9.9.9-test",
    log,
    ...(options.givenFiles ? { givenFiles: options.givenFiles } : {}),
  });

  const call: Harness["call"] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${server.token}`, ...init.headers };
    let body: string | Uint8Array | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await res.text();
    const answerHeaders = Object.fromEntries(res.headers.entries());
    assertNoCors(answerHeaders);
    return { status: res.status, headers: answerHeaders, text, json: text ? safeJson(text) : undefined };
  };

  const raw: Harness["raw"] = (text) => rawRequest(server.port, text);

  return {
    dir,
    paths,
    store,
    hooks,
    server,
    logs,
    call,
    raw,
    async close() {
      await server.close();
      await store.dispose();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Writes `text` to 127.0.0.1:port and reads until the server closes or a full answer came. */
export function rawRequest(port: number, text: string | Uint8Array): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const finish = () => {
      const all = Buffer.concat(chunks).toString("utf8");
      const split = all.indexOf("\r\n\r\n");
      const head = split === -1 ? all : all.slice(0, split);
      const bodyText = split === -1 ? "" : all.slice(split + 4);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(":");
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      assertNoCors(headers);
      const body = headers["transfer-encoding"] === "chunked" ? dechunk(bodyText) : bodyText;
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        text: body,
        json: body ? safeJson(body) : undefined,
      });
    };
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      // Stop at the end of one complete answer with a Content-Length.
      const all = Buffer.concat(chunks).toString("utf8");
      const split = all.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(all.slice(0, split));
      if (split !== -1 && length && Buffer.byteLength(all.slice(split + 4)) >= Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on("end", finish);
    socket.on("error", (error) => (chunks.length ? finish() : reject(error)));
    socket.write(text);
  });
}

function dechunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol === -1) return out;
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** A valid pushed payload (progress layout). */
export function progressBlip(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Deploy api",
    layout: "progress",
    data: { fraction: 0.4, step: "Migrating" },
    state: "running",
    ...extra,
  };
}
