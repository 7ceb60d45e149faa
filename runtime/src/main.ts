#!/usr/bin/env node
/**
 * svc-runtime: the long-lived process the host spawns (the protocol is served by serve.ts).
 *
 * The sandbox threads start first, before the rest of the runtime is even loaded: their start-up
 * (each imports the sandbox, warms up and makes its spare) overlaps the runtime's own, so
 * `initialize` finds them (nearly) ready and only hands them the person's time zone and locale.
 */
import { configFromEnv } from "./config.js";
import { createSandboxFactory } from "./sandbox-factory.js";

// Warnings about a bad knob are written once, by serve.ts, which reads the same environment.
const sandboxes = createSandboxFactory({ sandboxesPerThread: configFromEnv(process.env).sandboxesPerThread });
sandboxes.start?.();
const { serve } = await import("./serve.js");
serve(sandboxes);
