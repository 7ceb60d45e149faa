#!/usr/bin/env node
// `npm create svc <name> [-- --template deploys --id com.you.name]`: runs `svckit new`.
import { runAsProcess } from "svckit";

await runAsProcess(["new", ...process.argv.slice(2)]);
