/**
 * The notch window's preload, bundled by esbuild into `dist/preload.cjs`: a sandboxed preload is
 * one CommonJS script whose `require` knows `electron` (and little else).
 */
import { exposeBridge } from "./bridge.js";
import type { ElectronPreload } from "./electron-api.js";

exposeBridge(require("electron") as ElectronPreload);
