/**
 * Vitest global setup: builds every package before any test runs. Code on a sandbox thread
 * and inside svc-runtime runs from dist/, so without this a test could pass against stale code.
 * `npm run build` is incremental (`tsc -b`): a few seconds when nothing changed.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function buildFirst(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  try {
    execFileSync(npm, ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`the build failed, so no test ran:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}
