#!/usr/bin/env node
/** The `svckit` executable. */
import { runAsProcess } from "./process-entry.js";

await runAsProcess(process.argv.slice(2));
