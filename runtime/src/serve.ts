/**
 * svc-runtime's service, wired to stdio: NDJSON JSON-RPC 2.0 on stdin/stdout; free-form
 * diagnostics on stderr. stdout carries nothing but protocol lines: anything else that writes to
 * it (console.log, a stray library) is sent to stderr instead. Loaded by main.ts once the sandbox
 * threads are starting.
 */
import { readFileSync } from "node:fs";
import { format } from "node:util";
import { OffsetClock } from "./clock.js";
import { configFromEnv } from "./config.js";
import { Connection } from "./connection.js";
import { NdjsonReader, NdjsonWriter, type LineOutput } from "./framing.js";
import { RuntimeService } from "./runtime-service.js";
import { endWithParent, quietWriter } from "./process-lifetime.js";
import type { SandboxFactory } from "./sandbox-factory.js";

// Diagnostics never raise: once stderr's reader is gone they are dropped (process-lifetime.ts).
const writeStderr = quietWriter(process.stderr);
function note(message: string): void {
  writeStderr(`svc-runtime: ${message}\n`);
}

/** Takes stdout for the protocol alone, and points every other writer at stderr. */
function claimStdout(): LineOutput {
  const stdout = process.stdout;
  const output: LineOutput = {
    write: stdout.write.bind(stdout) as LineOutput["write"],
    on: stdout.on.bind(stdout) as LineOutput["on"],
  };
  const toStderr = (...args: unknown[]) => writeStderr(format(...args) + "\n");
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dir = (value: unknown) => toStderr(value);
  stdout.write = ((chunk: string | Uint8Array) => {
    writeStderr(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }) as typeof stdout.write;
  return output;
}

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Serves the protocol on stdin/stdout with these sandboxes until the host goes away. */
export function serve(sandboxes: SandboxFactory): void {
  const output = claimStdout();
  const config = configFromEnv(process.env, note);
  const writer = new NdjsonWriter(output);
  let service: RuntimeService | undefined;
  const connection = new Connection(writer, {
    note,
    maxLineBytes: config.maxLineBytes,
    beforeRequest: (method) => service?.guard(method),
  });
  service = new RuntimeService({
    connection,
    config,
    clock: new OffsetClock(),
    sandboxes,
    runtimeVersion: readVersion(),
    note,
    onStopped: () => void lifetime.end("shutdown"),
  });
  service.register();
  // Ends on stdin's end, stdout breaking, SIGTERM/SIGHUP or the host's death, each the same way:
  // sandboxes disposed (their exec children killed), seq files flushed, stdout drained, exit 0.
  // The host's death is stdin's end (stdin is the host's pipe): no look at the parent every
  // second, so a runtime at rest never wakes.
  const lifetime = endWithParent({
    watchParent: false,
    note,
    stop: async () => {
      await service?.stop();
      await writer.drain();
    },
  });

  // Bad input or a misbehaving extension must never end the process.
  process.on("uncaughtException", (error) => note(`uncaught: ${error?.stack ?? String(error)}`));
  process.on("unhandledRejection", (reason) =>
    note(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`),
  );

  connection.listen(
    new NdjsonReader(process.stdin, { maxLineBytes: config.maxLineBytes }),
    () => void lifetime.end("stdin closed"),
  );
  writer.onClose(() => void lifetime.end("stdout closed"));
}
