/**
 * The shell and the host: one host per support folder. When `webhook.json` points at a host that
 * answers, the shell joins it; otherwise it starts `svc-host` as its child (JSON events on its
 * stdout) and stops it again at quit. Every call reads `webhook.json` afresh (the token changes
 * at each host launch), has the port prove it is svc (`GET /v1/proof`, @svc/runtime's
 * app-link.ts: a squatter on a stale port is never sent the token, a dropped file's path, or
 * trusted for a page to load) and goes to the host's `/v1` API with its bearer token.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { isUiAddress, NotSvcError, proveApp } from "@svc/runtime";

export interface WebhookInfo {
  port: number;
  token: string;
}

/** How long the shell waits for a host it started to be up. */
export const HOST_START_TIMEOUT_MS = 30_000;
/** How long one `/v1` call may take. */
export const CALL_TIMEOUT_MS = 5_000;

export async function readWebhookFile(supportFolder: string): Promise<WebhookInfo | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(supportFolder, "webhook.json"), "utf8")) as Partial<WebhookInfo>;
    return Number.isInteger(parsed.port) && typeof parsed.token === "string"
      ? { port: parsed.port!, token: parsed.token }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A `/v1` call's failure, with the status and the host's own `error` line when it answered. */
export class HostCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly said?: string,
  ) {
    super(message);
    this.name = "HostCallError";
  }
}

/** A handle as the host's `POST /v1/given-files` makes them. */
const HANDLE = /^[A-Za-z0-9_-]{24}$/;

/** The host's `/v1` API as the shell uses it. */
export class HostClient {
  constructor(readonly supportFolder: string) {}

  /** `body`: a POST's JSON body (default `{}`). */
  async call(method: "GET" | "POST", path: string, timeoutMs = CALL_TIMEOUT_MS, body: unknown = {}): Promise<unknown> {
    const info = await readWebhookFile(this.supportFolder);
    if (!info)
      throw new HostCallError(
        `svc is not running: ${join(this.supportFolder, "webhook.json")} is missing or unreadable`,
      );
    try {
      await proveApp(info.port, info.token, { timeoutMs });
    } catch (error) {
      if (error instanceof NotSvcError) throw new HostCallError(error.message);
      throw new HostCallError(`svc did not answer on port ${info.port}: ${(error as Error).message}`);
    }
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${info.port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${info.token}`,
          ...(method === "POST" ? { "content-type": "application/json" } : {}),
        },
        ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new HostCallError(`svc did not answer on port ${info.port}: ${(error as Error).message}`);
    }
    const text = await response.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (!response.ok) {
      const said =
        typeof (answer as { error?: unknown })?.error === "string"
          ? (answer as { error: string }).error
          : text.slice(0, 200);
      throw new HostCallError(`${method} ${path} answered ${response.status}: ${said}`, response.status, said);
    }
    return answer;
  }

  /** True when svc (proven: the port holds the token in `webhook.json`) answers `GET /v1/health`. */
  async isLive(timeoutMs = 1_000): Promise<boolean> {
    try {
      await this.call("GET", "/v1/health", timeoutMs);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A one-time address of the notch UI (`POST /v1/ui/tickets`): `http://127.0.0.1:<ui-port>/#t=<ticket>`,
   * that shape only (@svc/runtime's `isUiAddress`): the notch window loads nothing else.
   */
  async uiUrl(): Promise<string> {
    let answer: unknown;
    try {
      answer = await this.call("POST", "/v1/ui/tickets");
    } catch (error) {
      if (error instanceof HostCallError && error.status === 404)
        throw new HostCallError("this svc-host has no UI server (POST /v1/ui/tickets is missing): update svc", 404);
      throw error;
    }
    const url = (answer as { url?: unknown })?.url;
    if (typeof url !== "string" || !isUiAddress(url))
      throw new HostCallError(`POST /v1/ui/tickets gave no svc UI address: ${JSON.stringify(answer).slice(0, 200)}`);
    return url;
  }

  /**
   * Registers a file the person dropped or picked (`POST /v1/given-files`): a read grant the host
   * checks (an existing regular file, its real path); the answer is the opaque handle the page
   * holds instead of the path. A refusal (400) keeps the host's reason, for the person.
   */
  async giveFile(path: string): Promise<string> {
    let answer: unknown;
    try {
      answer = await this.call("POST", "/v1/given-files", CALL_TIMEOUT_MS, { path });
    } catch (error) {
      if (error instanceof HostCallError && error.status === 404)
        throw new HostCallError(
          "this svc-host takes no dropped files (POST /v1/given-files is missing): update svc",
          404,
        );
      throw error;
    }
    const handle = (answer as { handle?: unknown })?.handle;
    if (typeof handle !== "string" || !HANDLE.test(handle))
      throw new HostCallError(`POST /v1/given-files gave no handle: ${JSON.stringify(answer).slice(0, 200)}`);
    return handle;
  }

  async pause(): Promise<void> {
    await this.call("POST", "/v1/scheduler/pause");
  }

  async resume(): Promise<void> {
    await this.call("POST", "/v1/scheduler/resume");
  }
}

/** `svc-host`'s committed launcher, found through the `@svc/host` package. */
export function svcHostBin(): string {
  const main = createRequire(import.meta.url).resolve("@svc/host");
  return join(dirname(main), "..", "bin", "svc-host.js");
}

/** One host event, as `SVC_HOST_OUTPUT=json` prints it. */
export type HostEventLine = { type: string; [key: string]: unknown };

export interface StartHostOptions {
  supportFolder: string;
  /** Default: {@link svcHostBin}. */
  hostBin?: string;
  /** Default: this process's Node; inside Electron, Electron run as Node. */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  onEvent?(event: HostEventLine): void;
  onStderr?(line: string): void;
  /** The started host exited without being asked (a crash, or someone stopped it). */
  onExit?(code: number | null, signal: NodeJS.Signals | null): void;
  timeoutMs?: number;
}

export interface HostLink {
  readonly client: HostClient;
  /** True when the shell joined a host it did not start (and leaves running at quit). */
  readonly joined: boolean;
  /** The host the shell started, if it did. */
  readonly child: ChildProcess | undefined;
  /** Stops the host the shell started (SIGTERM, then waits); a joined host is left alone. */
  stop(): Promise<void>;
}

/**
 * Joins the host of the support folder, or starts one.
 *
 * @example
 * const link = await startOrJoinHost({ supportFolder, onEvent: (e) => e.type === "openURL" && openPage(shell, e.url) });
 * window.loadURL(await link.client.uiUrl());
 */
export async function startOrJoinHost(options: StartHostOptions): Promise<HostLink> {
  const client = new HostClient(options.supportFolder);
  if (await client.isLive()) return { client, joined: true, child: undefined, stop: async () => {} };

  const inElectron = process.versions.electron !== undefined;
  const child = spawn(options.execPath ?? process.execPath, [options.hostBin ?? svcHostBin()], {
    env: {
      ...(options.env ?? process.env),
      SVC_HOME: options.supportFolder,
      SVC_HOST_OUTPUT: "json",
      ...(inElectron ? { ELECTRON_RUN_AS_NODE: "1" } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  createInterface({ input: child.stderr! }).on("line", (line) => {
    stderr = `${stderr}${line}\n`.slice(-4_000);
    options.onStderr?.(line);
  });
  const started = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let event: HostEventLine;
      try {
        event = JSON.parse(line) as HostEventLine;
      } catch {
        return;
      }
      if (event.type === "started") resolve();
      options.onEvent?.(event);
    });
  });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const timeoutMs = options.timeoutMs ?? HOST_START_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    started.then(() => "started" as const),
    exited.then((code) => `exited with code ${code}` as const),
    new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== "started") {
    await stop();
    const why = outcome === "timeout" ? `did not start within ${timeoutMs / 1000} s` : outcome;
    throw new HostCallError(`svc-host ${why}${stderr ? `:\n${stderr.trim()}` : ""}`);
  }
  child.once("exit", (code, signal) => {
    if (!stopping) options.onExit?.(code, signal);
  });
  return { client, joined: false, child, stop };
}
