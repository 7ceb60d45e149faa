/**
 * The shell and the host: one host per support folder. When `webhook.json` points at a host that
 * answers, the shell joins it; otherwise it starts `svc-host` as its child (JSON events on its
 * stdout) and stops it again at quit. Every call goes through the one client (@svc/runtime's
 * app-client.ts): `webhook.json` read afresh (the token changes at each host launch), the port's
 * proof that it is svc (a squatter on a stale port is never sent the token, a dropped file's path,
 * or trusted for a page to load), then the route of sdk's `V1_ROUTES` with the bearer token.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import type { HostEvent } from "@svc/host";
import { V1_ROUTES, v1Path, type V1Params, type V1RouteName } from "@svc/api";
import {
  AppAnswerError,
  AppUnreachableError,
  callRoute,
  isUiAddress,
  WebhookFileError,
  type AppAnswer,
} from "@svc/runtime";
import type { UtilityProcessStatic } from "./electron-api.js";

/** How long the shell waits for a host it started to be up. */
export const HOST_START_TIMEOUT_MS = 30_000;
/** How long one `/v1` call may take. */
export const CALL_TIMEOUT_MS = 5_000;

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

  /** One route of the table (sdk's `V1_ROUTES`) through the one client; `body`: a POST's JSON body (default `{}`). */
  async call<N extends V1RouteName>(
    name: N,
    params: V1Params<N>,
    timeoutMs = CALL_TIMEOUT_MS,
    body: unknown = {},
  ): Promise<unknown> {
    const { method } = V1_ROUTES[name];
    const path = v1Path(name, params);
    let answer: AppAnswer;
    try {
      answer = await callRoute(join(this.supportFolder, "webhook.json"), name, params, {
        timeoutMs,
        ...(method === "POST" ? { body } : {}),
      });
    } catch (error) {
      if (error instanceof WebhookFileError)
        throw new HostCallError(`svc is not running: ${error.path} is missing or unreadable`);
      if (error instanceof AppUnreachableError && error.reason === "not-svc") throw new HostCallError(error.message);
      if (error instanceof AppAnswerError) throw new HostCallError(error.message, error.status);
      const port = error instanceof AppUnreachableError ? error.port : "?";
      throw new HostCallError(`svc did not answer on port ${port}: ${(error as Error).message}`);
    }
    if (answer.status < 200 || answer.status > 299) {
      const said =
        typeof (answer.body as { error?: unknown })?.error === "string"
          ? (answer.body as { error: string }).error
          : (typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? "")).slice(0, 200);
      throw new HostCallError(`${method} ${path} answered ${answer.status}: ${said}`, answer.status, said);
    }
    return typeof answer.body === "string" ? undefined : answer.body;
  }

  /** True when svc (proven: the port holds the token in `webhook.json`) answers `GET /v1/health`. */
  async isLive(timeoutMs = 1_000): Promise<boolean> {
    try {
      await this.call("health", {}, timeoutMs);
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
      answer = await this.call("uiTicket", {});
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
      answer = await this.call("giveFiles", {}, CALL_TIMEOUT_MS, { path });
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
    await this.call("pauseScheduler", {});
  }

  async resume(): Promise<void> {
    await this.call("resumeScheduler", {});
  }

  /** On battery: the host stretches its schedules (×3, never below an extension's interval); or back to the usual. */
  async setOnBattery(on: boolean): Promise<void> {
    await this.call(on ? "onBattery" : "onPower", {});
  }
}

/** `svc-host`'s committed launcher, found through the `@svc/host` package. */
export function svcHostBin(): string {
  const main = createRequire(import.meta.url).resolve("@svc/host");
  return join(dirname(main), "..", "bin", "svc-host.js");
}

/**
 * A started host: Node's child process, or inside Electron a utility process
 * (`utilityProcess.fork`), which needs no `ELECTRON_RUN_AS_NODE` (the RunAsNode fuse a packaged
 * app turns off forbids it).
 */
export interface HostProcess {
  readonly pid?: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** SIGTERM (a utility process is ended the same way): the host saves its blips on the way out. */
  kill(): boolean;
  once(event: "exit", listener: (code: number | null, signal?: NodeJS.Signals | null) => void): unknown;
}

/** Starts `svc-host`'s launcher with `env`, its stdout and stderr piped. */
export type ForkHost = (modulePath: string, env: NodeJS.ProcessEnv) => HostProcess;

/** Outside Electron: this Node runs the launcher. */
export const forkWithNode: ForkHost = (modulePath, env) =>
  spawn(process.execPath, [modulePath], { env, stdio: ["ignore", "pipe", "pipe"] });

/** Inside Electron: the launcher in a utility process, its output piped, named in the task manager. */
export function forkInElectron(utilityProcess: UtilityProcessStatic): ForkHost {
  return (modulePath, env) => utilityProcess.fork(modulePath, [], { env, stdio: "pipe", serviceName: "svc-host" });
}

/** One host event, as `SVC_HOST_OUTPUT=json` prints it. */

export interface StartHostOptions {
  supportFolder: string;
  /** Default: {@link svcHostBin}. */
  hostBin?: string;
  /** Default: {@link forkWithNode}; inside Electron, `utilityProcess.fork` (`desktop.ts`). */
  fork?: ForkHost;
  env?: NodeJS.ProcessEnv;
  /** Each of the host's JSON event lines (`SVC_HOST_OUTPUT=json`), typed by the host's own declaration. */
  onEvent?(event: HostEvent): void;
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
  readonly child: HostProcess | undefined;
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

  const child = (options.fork ?? forkWithNode)(options.hostBin ?? svcHostBin(), {
    ...(options.env ?? process.env),
    SVC_HOME: options.supportFolder,
    SVC_HOST_OUTPUT: "json",
  });
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      ended = true;
      resolve(code);
    }),
  );
  let stderr = "";
  createInterface({ input: child.stderr! }).on("line", (line) => {
    stderr = `${stderr}${line}\n`.slice(-4_000);
    options.onStderr?.(line);
  });
  const started = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let event: HostEvent;
      try {
        event = JSON.parse(line) as HostEvent;
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
    if (!ended) child.kill();
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
    if (!stopping) options.onExit?.(code, signal ?? null);
  });
  return { client, joined: false, child, stop };
}
