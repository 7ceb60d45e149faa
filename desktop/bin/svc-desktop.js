#!/usr/bin/env node
// The `svc-desktop` command: committed (not built) so npm links it on the first `npm install`.
// It starts Electron on this package (`dist/main.js`, built by that install's `prepare` step).
// The electron package is optional: npm installs it only on Node 22.12 or later, and it fetches
// its binary on first use: this says plainly what is missing instead of failing deep inside.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HELP = `svc-desktop: svc's notch window, menu-bar icon and shortcut (Electron).

Usage:
  svc-desktop          start it (joins the svc-host running for the support folder, or starts one)
  svc-desktop --help   this text

Environment:
  SVC_HOME               support folder (default: the platform's, e.g. ~/.local/share/Svc)
  SVC_DESKTOP_DEVTOOLS   1: allow the page's developer tools

Settings: <support folder>/Desktop/settings.json (display, style, hideInFullscreen,
excludeFromCapture, shortcut, openAtLogin); see desktop/README.md.
Needs Node 22.12 or later (Electron 45 fetches its binary on first use).
`;
if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(HELP);
  process.exit(0);
}

const require = createRequire(import.meta.url);
const app = fileURLToPath(new URL("..", import.meta.url));
const fail = (message) => {
  process.stderr.write(`svc-desktop: ${message}\n`);
  process.exit(1);
};

const STILL = "Without it, svc still runs: npx svc-host (and svc-host ui for the notch UI in a browser).";
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12))
  fail(
    `Electron 45 needs Node 22.12 or later to fetch and start its binary (this is Node ${process.versions.node}): install Node 22.12+. ${STILL}`,
  );
let electronPath;
try {
  require.resolve("electron");
} catch {
  fail(`Electron is not installed: run npm install again. ${STILL}`);
}
try {
  // Under Node, the electron package answers with its binary's path (downloading it on first use).
  electronPath = require("electron");
} catch (error) {
  fail(`Electron's binary is missing and could not be fetched: ${error?.message ?? error}`);
}

const child = spawn(electronPath, [app, ...process.argv.slice(2)], { stdio: "inherit", windowsHide: false });
child.on("error", (error) => fail(`could not start Electron (${electronPath}): ${error.message}`));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
