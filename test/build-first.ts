/**
 * Vitest global setup: builds every package before any test runs, when anything the build reads
 * or writes changed since the last build this setup ran. Code on a sandbox thread and inside
 * svc-runtime runs from dist/, so without the build a test could pass against stale code; without
 * the check, every run paid ~13 s of rebuild even when nothing changed.
 *
 * The fingerprint is every file of the built workspaces (sources and dist/ alike: a deleted or
 * hand-edited output counts as a change) by path, size and modification time, plus the root
 * manifests. Tests (`*.test.ts`) are left out: the build never reads them.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const WORKSPACES = ["sdk", "sandbox", "runtime", "host", "testkit", "ui", "cli", "desktop", "extensions"];
const ROOT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.base.json"];
const SKIPPED = new Set(["node_modules", ".git", "coverage", "scratch"]);
const STAMP = join(root, "node_modules", ".cache", "svc-build-first.txt");

function collect(dir: string, into: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) collect(path, into);
    else if (entry.isFile() && !entry.name.endsWith(".test.ts")) into.push(path);
  }
}

/** A digest of the path, size and modification time of every file the build reads or writes under `top`. */
export function buildFingerprint(top = root): string {
  const files: string[] = ROOT_FILES.map((name) => join(top, name));
  for (const workspace of WORKSPACES) collect(join(top, workspace), files);
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    try {
      const { size, mtimeMs } = statSync(file);
      hash.update(`${file}\0${size}\0${mtimeMs}\n`);
    } catch {
      hash.update(`${file}\0missing\n`);
    }
  }
  return hash.digest("hex");
}

function lastFingerprint(): string | undefined {
  try {
    return readFileSync(STAMP, "utf8");
  } catch {
    return undefined;
  }
}

export default function buildFirst(): void {
  if (lastFingerprint() === buildFingerprint()) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  try {
    execFileSync(npm, ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`the build failed, so no test ran:\n${stdout ?? ""}${stderr ?? ""}`);
  }
  // Taken after the build, so its own outputs are part of what the next run compares.
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  writeFileSync(STAMP, buildFingerprint());
}
