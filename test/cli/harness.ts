/**
 * Runs svckit for the tests: in-process through `runCli` (fast, same code path as the binary
 * minus `main.ts`), or as the real built executable when the process boundary matters.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../../cli/src/run.js";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const SVCKIT_BIN = join(REPO, "cli", "dist", "main.js");

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svckit <words>` in-process with the given folder and environment. */
export async function svckit(
  words: string[],
  options: {
    cwd: string;
    env?: Record<string, string | undefined>;
    stdin?: string;
    signal?: AbortSignal;
    /** Lists the lines are pushed to as they come, for a test that watches a long-running command. */
    lines?: { stdout: string[]; stderr: string[] };
  },
): Promise<Outcome> {
  const { stdout, stderr } = options.lines ?? { stdout: [], stderr: [] };
  const code = await runCli(words, {
    cwd: options.cwd,
    env: options.env ?? {},
    signal: options.signal ?? new AbortController().signal,
    readStdin: async () => options.stdin ?? "",
    out: { info: (line) => stdout.push(line), warn: (line) => stderr.push(line) },
  });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

/** Runs the built `svckit` executable as a child process. */
export function svckitProcess(
  words: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVCKIT_BIN, ...words], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout: stdout.trimEnd(), stderr: stderr.trimEnd() }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** A fresh temporary folder, and a function that removes it. */
export async function tempFolder(prefix = "svckit-"): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
