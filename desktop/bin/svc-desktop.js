#!/usr/bin/env node
// The `svc-desktop` command: committed (not built) so npm links it on the first `npm install`.
// It starts Electron on this package (`dist/main.js`, built by that install's `prepare` step).
// Electron is an optional dependency: npm skips it on Node older than 22.12, and its binary is
// fetched on first use, so this says plainly what is missing instead of failing deep inside.
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
Needs Electron 45, which npm installs on Node 22.12 or later.
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

let electronPath;
try {
  require.resolve("electron");
} catch {
  const [major, minor] = process.versions.node.split(".").map(Number);
  const why =
    major < 22 || (major === 22 && minor < 12)
      ? `It needs Node 22.12 or later (this is Node ${process.versions.node}), so npm skipped it. Install Node 22.12+ and run npm install again.`
      : "npm did not install it (were optional dependencies left out?): run npm install again.";
  fail(
    `Electron is not installed. ${why} Without it, svc still runs: npx svc-host (and svc-host ui for the notch UI in a browser).`,
  );
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
