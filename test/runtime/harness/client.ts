/**
 * A small JSON-RPC client that drives the real built svc-runtime over real pipes. Its own
 * framing (independent of the runtime's), so the tests check the wire, not the runtime's code
 * against itself. Method names come from the protocol declarations.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { NotificationType, RequestType } from "@svc/runtime";

export const RUNTIME_MAIN = fileURLToPath(new URL("../../../runtime/dist/bundle/main.js", import.meta.url));

export interface WireMessage {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

type Declared = RequestType<any, any> | NotificationType<any>;
type HostHandler = (params: any) => unknown | Promise<unknown>;

export class RuntimeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout byte, to prove nothing but protocol lines is written. */
  readonly stdoutChunks: Buffer[] = [];
  stderr = "";
  /** Every message the runtime sent, in order. */
  readonly received: WireMessage[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer = "";
  private nextId = 1;
  private readonly waiting = new Map<string | number, (message: WireMessage) => void>();
  private readonly hostHandlers = new Map<string, HostHandler>();
  private readonly watchers = new Set<() => void>();

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [RUNTIME_MAIN], {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
      for (const watcher of [...this.watchers]) watcher();
    });
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Sends a request and resolves with the raw response (result or error). */
  request(type: Declared | string, params?: unknown): Promise<WireMessage> {
    const id = this.nextId++;
    const method = typeof type === "string" ? type : type.method;
    const response = new Promise<WireMessage>((resolve) => this.waiting.set(id, resolve));
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return response;
  }

  /** Sends a request and resolves with its result; throws with the error's code and message. */
  async call<R = any>(type: Declared | string, params?: unknown): Promise<R> {
    const response = await this.request(type, params);
    if (response.error)
      throw Object.assign(new Error(`${response.error.code} ${response.error.message}`), response.error);
    return response.result as R;
  }

  /** Answers the runtime's `host.*` requests of this method. */
  serve(type: Declared, handler: HostHandler): void {
    this.hostHandlers.set(type.method, handler);
  }

  send(message: unknown): void {
    void this.writeRaw(JSON.stringify(message) + "\n");
  }

  writeRaw(data: string | Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.stdin.destroyed) return resolve();
      this.child.stdin.write(data, () => resolve());
    });
  }

  /** Notifications of this method received so far; with `extensionId`, only that extension's. */
  notifications(type: Declared, extensionId?: string): any[] {
    return this.received
      .filter((m) => m.method === type.method && m.id === undefined)
      .map((m) => m.params)
      .filter((p) => extensionId === undefined || p?.extensionId === extensionId);
  }

  /** Waits until `predicate` holds over what was received (checked on every new message). */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 30_000, what = "a condition"): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = predicate();
        if (value) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; stderr:\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Waits for the `count`-th notification of a method matching `match`. */
  waitForNotification(
    type: Declared,
    match: (params: any) => boolean = () => true,
    count = 1,
    timeoutMs = 30_000,
  ): Promise<any> {
    return this.waitFor(
      () => {
        const found = this.notifications(type).filter(match);
        return found.length >= count ? found[count - 1] : undefined;
      },
      timeoutMs,
      `${count} × ${type.method}`,
    );
  }

  /** Every stdout line parsed; throws if any byte is not part of a JSON line. */
  stdoutLines(): unknown[] {
    const text = Buffer.concat(this.stdoutChunks).toString("utf8");
    if (text.length > 0 && !text.endsWith("\n")) throw new Error("stdout does not end with a newline");
    return text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
  }

  async shutdown(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutChunks.push(chunk);
    this.buffer += chunk.toString("utf8");
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const message = JSON.parse(line) as WireMessage;
      this.received.push(message);
      this.dispatch(message);
      for (const watcher of [...this.watchers]) watcher();
    }
  }

  private dispatch(message: WireMessage): void {
    if (message.method === undefined) {
      const resolve = message.id === null || message.id === undefined ? undefined : this.waiting.get(message.id);
      if (resolve) {
        this.waiting.delete(message.id as number);
        resolve(message);
      }
      return;
    }
    if (message.id === undefined) return;
    const handler = this.hostHandlers.get(message.method);
    const id = message.id;
    if (!handler) {
      this.send({ jsonrpc: "2.0", id, error: { code: -32601, message: `test host does not serve ${message.method}` } });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.params))
      .then(
        (result) => this.send({ jsonrpc: "2.0", id, result: result ?? null }),
        (error: any) =>
          this.send({
            jsonrpc: "2.0",
            id,
            error: { code: error?.code ?? -32000, message: String(error?.message ?? error) },
          }),
      );
  }
}
