#!/usr/bin/env node
// `npm start`: runs the host once it exists; until then, says what there is to try.
import { existsSync } from "node:fs";
import { spawn } from "node:child_process";

const host = new URL("../host/dist/main.js", import.meta.url);
if (existsSync(host)) {
  const child = spawn(process.execPath, [host.pathname, ...process.argv.slice(2)], { stdio: "inherit" });
  child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
} else {
  console.log("svc: the host (svc-host) is not built yet.");
  console.log("What works today:");
  console.log("  npx svc-runtime        the extension runtime, JSON-RPC on stdin/stdout (see runtime/README.md)");
  console.log("  npm test               every test");
  console.log("  npm run bench          the benchmarks (see bench/README.md)");
}
