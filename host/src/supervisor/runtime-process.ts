/**
 * One svc-runtime child process: spawned with pipes, its stdout framed as NDJSON JSON-RPC, its
 * stderr handed on line by line. It knows nothing of restarts (see `supervisor.ts`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  Connection,
  RUNTIME_NODE_FLAGS,
  EXEC_OWNER_VARIABLE,
  NdjsonReader,
  NdjsonWriter,
  Shutdown,
  killTagged,
  newTagPrefix,
  runtimeEnvironment,
} from "@svc/runtime";

/** Where `svc-runtime` lives: `SVC_RUNTIME` when set, else the installed `@svc/runtime`'s bundle, `dist/bundle/main.js`. */
export function runtimeMainPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_RUNTIME) return env.SVC_RUNTIME;
  const entry = createRequire(import.meta.url).resolve("@svc/runtime");
  return join(dirname(entry), "bundle", "main.js");
}

export interface RuntimeProcessOptions {
  /** The runtime's `main.js`. */
  main: string;
  /** The Node binary; default: the one running the host. */
  nodePath?: string;
  env?: NodeJS.ProcessEnv;
  /** The data root `initialize` will name: Node's compile cache of the runtime's own code goes in it. */
  dataDir?: string;
  /** One line the runtime wrote on stderr. */
  onStderr(line: string): void;
  /** A connection-level diagnostic (a response nobody waited for, …). */
  onNote(message: string): void;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * @example
 * const child = RuntimeProcess.spawn({ main: runtimeMainPath(), onStderr: log, onNote: log });
 * child.connection.onNotification(BlipUpdate, (p) => store.applyUpdate(p));
 * await child.connection.sendRequest(Initialize, { protocolVersion: 1, dataDir, locale, timeZone });
 * const exit = await child.exited;
 */
export class RuntimeProcess {
  readonly connection: Connection;
  /** Resolves once the process has ended, however it ended. */
  readonly exited: Promise<ExitInfo>;
  private alive = true;

  private constructor(
    private readonly child: ChildProcess,
    options: RuntimeProcessOptions,
  ) {
    const stdin = child.stdin!;
    // A write after the child died must not throw out of the host.
    stdin.on("error", (error) => options.onNote(`runtime stdin: ${error.message}`));
    this.connection = new Connection(new NdjsonWriter(stdin), { note: options.onNote });
    this.connection.listen(new NdjsonReader(child.stdout!));
    let pending = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) options.onStderr(line);
    });
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.alive = false;
        if (pending.trim()) options.onStderr(pending);
        this.connection.dispose("the runtime exited");
        resolve({ code, signal });
      });
      child.once("error", (error) => {
        options.onNote(`runtime could not start: ${error.message}`);
        if (this.alive && child.exitCode === null && child.pid === undefined) {
          this.alive = false;
          this.connection.dispose("the runtime could not start");
          resolve({ code: null, signal: null });
        }
      });
    });
  }

  /**
   * Starts the runtime with a tag prefix of its own (`SVC_EXEC_OWNER`): every program its
   * extensions start carries a tag below it, so when the runtime exits, however it exits (a
   * crash, SIGKILL), whatever those programs left running is killed here.
   */
  static spawn(options: RuntimeProcessOptions): RuntimeProcess {
    const execOwner = newTagPrefix();
    // Started with the runtime's own Node flags and environment (smaller fixed memory: runtime/src/launch-options.ts).
    const child = spawn(options.nodePath ?? process.execPath, [...RUNTIME_NODE_FLAGS, options.main], {
      stdio: ["pipe", "pipe", "pipe"],
      env: runtimeEnvironment(
        { ...(options.env ?? process.env), [EXEC_OWNER_VARIABLE]: execOwner },
        process.platform,
        options.dataDir,
      ),
    });
    child.once("exit", () => void killTagged(execOwner));
    return new RuntimeProcess(child, options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  /** Asks the runtime to stop (`shutdown`), then kills it if it has not exited within `graceMs`. */
  async stop(graceMs = 3_000): Promise<ExitInfo> {
    if (this.alive) {
      const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
      try {
        await this.connection.sendRequest(Shutdown, {}, { timeoutMs: graceMs });
      } catch {
        // Already gone or not answering: the timer ends it.
      }
      this.child.stdin?.end();
      const exit = await this.exited;
      clearTimeout(timer);
      return exit;
    }
    return this.exited;
  }
}
