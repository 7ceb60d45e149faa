/** The committed `svc-desktop` launcher, where no Electron binary is needed to see it. */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const LAUNCHER = fileURLToPath(new URL("../../desktop/bin/svc-desktop.js", import.meta.url));
const run = promisify(execFile);

describe("svc-desktop", () => {
  it("explains itself with --help", async () => {
    const { stdout } = await run(process.execPath, [LAUNCHER, "--help"]);
    expect(stdout).toMatch(/^svc-desktop: svc's notch window, menu-bar icon and shortcut \(Electron\)\./);
    expect(stdout).toContain("SVC_HOME");
    expect(stdout).toContain("Desktop/settings.json");
  });

  it("says what is missing (Node 22.12, or Electron), and what still works", async () => {
    // A copy of the launcher with no node_modules around it: electron cannot be resolved.
    const folder = await mkdtemp(join(tmpdir(), "svc-desktop-bin-"));
    try {
      await mkdir(join(folder, "bin"));
      await copyFile(LAUNCHER, join(folder, "bin", "svc-desktop.js"));
      const failed = await run(process.execPath, [join(folder, "bin", "svc-desktop.js")]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
      const still = "Without it, svc still runs: npx svc-host (and svc-host ui for the notch UI in a browser).";
      // The Node check comes first: Electron's package cannot fetch its binary on older Node.
      const why =
        major < 22 || (major === 22 && minor < 12)
          ? `Electron 45 needs Node 22.12 or later to fetch and start its binary (this is Node ${process.versions.node}): install Node 22.12+.`
          : "Electron is not installed: run npm install again.";
      expect(failed?.stderr).toBe(`svc-desktop: ${why} ${still}\n`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
