/**
 * Runs svckit as a process: the one place (with the two executables that call it, `svckit`
 * and `create-svc`) that reads the real stdin, prints to stdout/stderr, listens for Ctrl-C
 * and sets the exit code.
 */
import { closeSandboxes } from "./build/sandbox-session.js";
import { runCli } from "./run.js";
import { invokedAs } from "./invoked-as.js";

/**
 * @example
 * await runAsProcess(process.argv.slice(2));          // svckit
 * await runAsProcess(["new", ...process.argv.slice(2)]); // create-svc
 */
export async function runAsProcess(words: string[]): Promise<void> {
  // `svckit tool list | head -1`: once the reader has gone, nobody is left to tell; end quietly
  // instead of with a stack trace about EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const controller = new AbortController();
  let interrupts = 0;
  // Ctrl-C, a `kill`, a closed terminal: each asks the running command to stop cleanly (svckit
  // dev then removes its link); a second signal insists.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      interrupts += 1;
      if (interrupts > 1) process.exit(signal === "SIGINT" ? 130 : 128 + (signal === "SIGTERM" ? 15 : 1));
      controller.abort();
    });
  }
  const code = await runCli(words, {
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
    readStdin,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    streams: { stdin: process.stdin, stdout: process.stdout },
    invokedAs: invokedAs(process.argv[1], process.env),
    out: {
      info: (line) => process.stdout.write(`${line}\n`),
      warn: (line) => process.stderr.write(`${line}\n`),
    },
  });
  process.exitCode = code;
  await closeSandboxes();
  // Nothing should hold the event loop now; if something does, end anyway once the output is flushed.
  setTimeout(() => flushThenExit(code), 500).unref();
}

function flushThenExit(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}
