#!/usr/bin/env node
/**
 * svc-runtime: the long-lived process the host spawns (the protocol is served by serve.ts).
 *
 * The sandbox threads start first, before the rest of the runtime is even loaded: their start-up
 * (each imports the sandbox, warms up and makes its spare) overlaps the runtime's own, so
 * `initialize` finds them (nearly) ready and only hands them the person's time zone and locale.
 * svc-host starts the bundle of this file (scripts/bundle.mjs: dist/bundle/main.js), in which
 * the protocol side is a chunk of its own, read only after the threads are spawned.
 */
import { REPLAY_ENV, replayFiles, TEST_NOW_ENV, testClock } from "@svc/sandbox/test-switches";
import { configFromEnv } from "./config.js";
import { createSandboxFactory } from "./sandbox-factory.js";

// A test switch is never quiet: said before anything runs, and an unreadable one stops the runtime.
try {
  const replayed = replayFiles(process.env);
  if (replayed)
    process.stderr.write(
      `svc-runtime: TEST SWITCH ${REPLAY_ENV} is set: fetches of ${[...replayed.keys()].join(", ")} are answered from recordings, never the network. Not for normal use.\n`,
    );
  const clock = testClock(process.env);
  if (clock)
    process.stderr.write(
      `svc-runtime: TEST SWITCH ${TEST_NOW_ENV} is set: every extension's clock starts at ${new Date(clock.now()).toISOString()}. Not for normal use.\n`,
    );
} catch (error) {
  process.stderr.write(`svc-runtime: ${(error as Error).message}\n`);
  process.exit(2);
}

// Warnings about a bad knob are written once, by serve.ts, which reads the same environment.
const sandboxes = createSandboxFactory({ sandboxesPerThread: configFromEnv(process.env).sandboxesPerThread });
// Only once the threads are spawned: loading the protocol side holds this thread for tens of ms,
// and the QuickJS module's compile must finish here before the first thread can start.
await sandboxes.start?.();
const { serve } = await import("./serve.js");
serve(sandboxes);
