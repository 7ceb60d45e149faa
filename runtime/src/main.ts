#!/usr/bin/env node
/**
 * svc-runtime: the long-lived process the host spawns (the protocol is served by serve.ts).
 *
 * The sandbox threads start first, before the rest of the runtime is even loaded: their start-up
 * (each imports the sandbox, warms up and makes its spare) overlaps the runtime's own, so
 * `initialize` finds them (nearly) ready and only hands them the person's time zone and locale.
 */
import { createSandboxFactory } from "./sandbox-factory.js";

const sandboxes = createSandboxFactory();
sandboxes.start?.();
const { serve } = await import("./serve.js");
serve(sandboxes);
