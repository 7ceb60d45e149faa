// A JSON-RPC client over a child process's stdin/stdout (NDJSON), for driving svc-runtime and
// the baseline runtime identically. Its own framing: the bench measures the wire, not the
// runtime's code against itself. host.* requests from the runtime are answered `{}` at once.
import { spawn } from "node:child_process";

export class RpcProcess {
  #child;
  #buffer = "";
  #nextId = 1;
  #waiting = new Map();
  #listeners = new Map();
  stderr = "";

  /** @example const rt = new RpcProcess(process.execPath, ["runtime/dist/bundle/main.js"]); */
  constructor(command, args, env = {}) {
    this.#child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk) => this.#read(chunk));
    this.#child.stderr.on("data", (chunk) => (this.stderr = (this.stderr + chunk).slice(-20_000)));
    this.exited = new Promise((resolve) => this.#child.on("exit", (code) => resolve(code)));
  }

  get pid() {
    return this.#child.pid;
  }

  /** Sends a request; resolves with its result, rejects with its error's message. */
  call(method, params) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (message) =>
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result),
      );
      this.#child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  /** Calls `listener(params, line)` for every notification of `method`. */
  on(method, listener) {
    this.#listeners.set(method, listener);
  }

  async close() {
    await this.call("shutdown", {}).catch(() => {});
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  #read(chunk) {
    this.#buffer += chunk;
    let newline;
    while ((newline = this.#buffer.indexOf("\n")) >= 0) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line) this.#dispatch(line);
    }
  }

  #dispatch(line) {
    const message = JSON.parse(line);
    if (message.method && message.id !== undefined) {
      this.#child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }) + "\n");
    } else if (message.method) {
      this.#listeners.get(message.method)?.(message.params, line);
    } else {
      const waiter = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      waiter?.(message);
    }
  }
}
