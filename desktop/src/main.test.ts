/**
 * The Electron entry on the stand-in `electron` (mocked for this file only): it hands the real
 * module, the support folder and the built preload and icon to `startDesktop`, and exits 1 with
 * the reason when the start fails.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MACBOOK_NOTCHED } from "./testing/displays.js";
import { createElectronDouble } from "./testing/electron-double.js";

const electron = vi.hoisted(() => ({ current: undefined as unknown }));
const started = vi.hoisted(() => ({ calls: [] as unknown[][], fail: undefined as Error | undefined }));

// A getter: the mocked module is made once per file, each test sets its own double.
vi.mock("electron", () => ({
  get default() {
    return electron.current;
  },
}));
vi.mock("./desktop.js", () => ({
  startDesktop: async (...args: unknown[]) => {
    started.calls.push(args);
    if (started.fail) throw started.fail;
  },
}));

describe("main.ts", () => {
  afterEach(() => {
    vi.resetModules();
    started.calls = [];
    started.fail = undefined;
    vi.unstubAllEnvs();
  });

  it("starts the shell with the real module, the support folder, the preload and the tray icons", async () => {
    electron.current = createElectronDouble([MACBOOK_NOTCHED]);
    vi.stubEnv("SVC_HOME", "/tmp/svc-main-test");
    await import("./main.js");
    expect(started.calls).toHaveLength(1);
    const [given, options] = started.calls[0] as [
      unknown,
      { supportFolder: string; preload: string; assets: string; devTools: boolean; platform: string },
    ];
    expect(given).toBe(electron.current);
    expect(options.supportFolder).toBe("/tmp/svc-main-test");
    expect(options.platform).toBe(process.platform);
    expect(options.devTools).toBe(false);
    expect(options.preload.endsWith("preload.cjs")).toBe(true);
    expect(existsSync(options.preload.replace(/src([/\\])preload\.cjs$/, "dist$1preload.cjs"))).toBe(true);
    for (const icon of ["trayTemplate.png", "trayTemplate@2x.png", "tray.png", "tray@2x.png"])
      expect(existsSync(join(options.assets, icon))).toBe(true);
  });

  it("exits 1 and says why when the start fails", async () => {
    const double = createElectronDouble([MACBOOK_NOTCHED]);
    electron.current = double;
    started.fail = new Error("svc-host exited with code 1");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await import("./main.js");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(double.app.exitCode).toBe(1);
    expect(stderr).toHaveBeenCalledWith("svc-desktop: could not start: svc-host exited with code 1\n");
    stderr.mockRestore();
  });
});
