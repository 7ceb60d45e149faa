#!/usr/bin/env node
/**
 * `svc-hook`: the helper agent and git hooks call to show work under way as a blip.
 * The only file that touches `process`; see run.ts for everything else.
 */
import { text } from "node:stream/consumers";
import { runHook } from "./run.js";

process.exitCode = await runHook(
  process.argv.slice(2),
  {
    stdout: (line) => process.stdout.write(`${line.endsWith("\n") ? line : `${line}\n`}`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  },
  // A terminal is never waited on: `send` typed by hand takes its body as an argument.
  { readStdin: async () => (process.stdin.isTTY ? "" : text(process.stdin)) },
);
