/**
 * The stock `minisign` tool for interoperability tests: provisioned like the Secret Service
 * (scripts/provision-minisign.sh), run as a real process.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROVISION = fileURLToPath(new URL("../../scripts/provision-minisign.sh", import.meta.url));

/** Installs minisign when missing (Debian, as root); throws with the fix if it cannot. */
export function provisionMinisign(): void {
  if (spawnSync("sh", ["-c", "command -v minisign"]).status === 0) return;
  const result = spawnSync("sh", [PROVISION], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`could not provision minisign: run sh ${PROVISION}`);
}

/** Runs `minisign <args>` in `cwd`; stdin is closed, so it never waits for a password. */
export function minisign(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const result = spawnSync("minisign", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
