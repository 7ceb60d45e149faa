/**
 * The Electron entry (`electron desktop/`): the only file that loads the real `electron`. It is
 * typed by Electron's own `electron.d.ts`, so handing it to `startDesktop` is the check that
 * the real module fits the shell's view of it (`electron-api.ts`); the top-level await runs
 * before Electron's `ready`, as Electron's ES module guide asks.
 */
import { fileURLToPath } from "node:url";
import electron from "electron";
import { startDesktop } from "./desktop.js";
import { supportRoot } from "@svc/runtime";

await startDesktop(electron, {
  supportFolder: supportRoot(),
  platform: process.platform,
  preload: fileURLToPath(new URL("./preload.cjs", import.meta.url)),
  assets: fileURLToPath(new URL("../assets/", import.meta.url)),
  devTools: process.env.SVC_DESKTOP_DEVTOOLS === "1",
}).catch((error: unknown) => {
  process.stderr.write(`svc-desktop: could not start: ${(error as Error)?.message ?? String(error)}\n`);
  electron.app.exit(1);
});
