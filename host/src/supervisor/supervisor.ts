/**
 * Keeps one svc-runtime alive: spawns it, initializes it, lets the host load its extensions,
 * and when the process dies unexpectedly starts a new one after a backoff and lets the host
 * restore every extension again. `stop()` sends `shutdown` and waits for the exit.
 */
import type { Disposable } from "@svc/api";
import { Initialize, type Connection, type ParamsOf, type RequestType, type SendOptions } from "@svc/runtime";
import { DEFAULT_BACKOFF, RestartBackoff, type BackoffOptions } from "./backoff.js";
import type { ExitInfo, RuntimeProcess } from "./runtime-process.js";

export type RuntimeState = "started" | "exited" | "restarting" | "restored" | "stopped";

export interface SupervisorOptions {
  spawn(): RuntimeProcess;
  /** Installs the host's handlers on a fresh connection, before `initialize`. */
  register(connection: Connection): void;
  initialize: ParamsOf<typeof Initialize>;
  /** The runtime answered `initialize`: load the extensions. `restored` after a crash restart. */
  onReady(connection: Connection, restored: boolean): Promise<void>;
  onState(state: RuntimeState, detail?: string, pid?: number): void;
  backoff?: BackoffOptions;
}

/** Thrown for requests made while no runtime is ready. */
export class RuntimeUnavailableError extends Error {
  override readonly name = "RuntimeUnavailableError";
}

/**
 * @example
 * const supervisor = new RuntimeSupervisor({ spawn, register, initialize, onReady, onState });
 * await supervisor.start();
 * await supervisor.request(ExtensionRun, { id, trigger: { type: "manual" } });
 * await supervisor.dispose();
 */
export class RuntimeSupervisor implements Disposable {
  private process: RuntimeProcess | undefined;
  private ready = false;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly backoff: RestartBackoff;
  private generation = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.backoff = new RestartBackoff(options.backoff ?? DEFAULT_BACKOFF);
  }

  /** The connection to the runtime when one is up and initialized. */
  get connection(): Connection | undefined {
    return this.ready ? this.process?.connection : undefined;
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Starts the first runtime; resolves once its extensions are loaded (or it failed and a restart is planned). */
  async start(): Promise<void> {
    await this.launch(false);
  }

  /** Sends a request to the current runtime; rejects at once when none is ready. */
  request<P, R>(type: RequestType<P, R>, params: P, options?: SendOptions): Promise<R> {
    const connection = this.connection;
    if (!connection)
      return Promise.reject(new RuntimeUnavailableError("the runtime is not running (it is restarting)"));
    return connection.sendRequest(type, params, options);
  }

  async dispose(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.ready = false;
    const current = this.process;
    if (current) await current.stop();
    this.options.onState("stopped");
  }

  private async launch(restored: boolean): Promise<void> {
    if (this.stopping) return;
    const generation = ++this.generation;
    const startedAt = Date.now();
    const child = this.options.spawn();
    this.process = child;
    this.ready = false;
    void child.exited.then((exit) => this.exited(generation, exit, Date.now() - startedAt));
    this.options.register(child.connection);
    try {
      await child.connection.sendRequest(Initialize, this.options.initialize, { timeoutMs: 15_000 });
    } catch (error) {
      this.options.onState("exited", `initialize failed: ${(error as Error).message}`);
      if (child.running) await child.stop(1_000);
      return;
    }
    if (generation !== this.generation || this.stopping) return;
    this.ready = true;
    this.options.onState(restored ? "restored" : "started", undefined, child.pid);
    try {
      await this.options.onReady(child.connection, restored);
    } catch (error) {
      this.options.onState("exited", `loading extensions failed: ${(error as Error).message}`);
    }
  }

  private exited(generation: number, exit: ExitInfo, livedMs: number): void {
    if (generation !== this.generation) return;
    this.ready = false;
    if (this.stopping) return;
    const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
    const delay = this.backoff.next(livedMs);
    this.options.onState("exited", how);
    this.options.onState("restarting", `in ${delay} ms`);
    this.restartTimer = setTimeout(() => void this.launch(true), delay);
  }
}
