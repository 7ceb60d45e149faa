#!/usr/bin/env node
/**
 * The `svckit` executable: the only place that reads `process.argv`, prints, and exits.
 */
import { runCli } from "./run.js";

const controller = new AbortController();
let interrupts = 0;
process.on("SIGINT", () => {
  // The first Ctrl-C asks the running command to stop cleanly; a second one insists.
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}

const code = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
  readStdin,
  out: {
    info: (line) => process.stdout.write(`${line}\n`),
    warn: (line) => process.stderr.write(`${line}\n`),
  },
});
process.exitCode = code;
// Let stdout drain; anything still holding the loop open after a command ends is a leak we
// do not want to turn into a hang.
setTimeout(() => process.exit(code), 50).unref();
