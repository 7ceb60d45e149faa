/**
 * The Electron entry (`electron desktop/`): the only file that loads the real `electron`. The
 * specifier is a variable so TypeScript needs no Electron types (npm skips Electron on Node
 * older than 22.12); the top-level await runs before Electron's `ready`, as Electron's ES module
 * guide asks.
 */
import { fileURLToPath } from "node:url";
import type { ElectronMain } from "./electron-api.js";
import { startDesktop } from "./desktop.js";
import { supportRoot } from "@svc/runtime";

const ELECTRON = "electron";
const loaded = (await import(ELECTRON)) as { default?: ElectronMain } & ElectronMain;
const electron = loaded.default ?? loaded;

await startDesktop(electron, {
  supportFolder: supportRoot(),
  platform: process.platform,
  preload: fileURLToPath(new URL("./preload.cjs", import.meta.url)),
  trayIcon: fileURLToPath(new URL("../assets/trayTemplate.png", import.meta.url)),
  devTools: process.env.SVC_DESKTOP_DEVTOOLS === "1",
}).catch((error: unknown) => {
  process.stderr.write(`svc-desktop: could not start: ${(error as Error)?.message ?? String(error)}\n`);
  electron.app.exit(1);
});
