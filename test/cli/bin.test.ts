/**
 * The real executables as a person runs them: `svckit` (cli/dist/main.js) and `create-svc`,
 * their help, exit codes and one-line errors. Needs `npx tsc -b cli/tsconfig.json` first.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, SVCKIT_BIN, svckit, svckitProcess, tempFolder, type Outcome } from "./harness.js";

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-bin-");
});
afterAll(() => folder.remove());

describe("svckit executable", () => {
  it("prints the commands and exit codes with --help, exit 0", async () => {
    const result = await svckitProcess(["--help"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: svckit <command> \[options\]/);
    for (const command of ["new", "build", "check", "validate", "dev", "send", "pack"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} +\\S`, "m"));
    }
    expect(result.stdout).toContain("Exit codes: 0 ok, 1 a problem was found, 2 the command line is wrong.");
  });

  it("has --help on every command (in-process: the same dispatcher)", async () => {
    for (const command of ["new", "build", "check", "validate", "dev", "send", "pack"]) {
      const result = await svckit([command, "--help"], { cwd: folder.dir });
      expect(result.code).toBe(0);
      expect(result.stdout.split("\n")[0]).toMatch(new RegExp(`^Usage: svckit ${command}`));
    }
  });

  it("exits 2 on an unknown command, 1 on a problem, one line each, no stack", async () => {
    const unknown = await svckitProcess(["frob"], { cwd: folder.dir });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'svckit: unknown command "frob"\nRun `svckit --help` to see the commands.',
    });
    const problem = await svckitProcess(["build"], { cwd: folder.dir });
    expect(problem).toMatchObject({
      code: 1,
      stderr: `no package.json in ${folder.dir}: run svckit in an extension folder (svckit new <name> makes one).`,
    });
  });

  it("ends quietly when the reader of its output has gone (svckit --help | head -0)", async () => {
    // bash holds svckit back until the reading end of its stdout is closed, so the write
    // surely meets a closed pipe (EPIPE).
    const child = spawn("bash", ["-c", `read -r _; exec "${process.execPath}" "${SVCKIT_BIN}" --help`], {
      cwd: folder.dir,
      env: { PATH: process.env.PATH ?? "", HOME: folder.dir },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    await new Promise((resolve) => {
      child.stdout.once("close", resolve);
      child.stdout.destroy();
    });
    child.stdin.end("go\n");
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });

  it("shows an unexpected error in one line with the SVC_DEBUG hint, and the stack with SVC_DEBUG=1", async () => {
    // A file where `new` must make a folder: an error svckit has no message of its own for.
    await writeFile(join(folder.dir, "taken"), "");
    const plain = await svckitProcess(["new", "taken"], { cwd: folder.dir });
    expect(plain.code).toBe(1);
    const lines = plain.stderr.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^svckit: unexpected error: E\w+: /);
    expect(lines[1]).toBe("Run with SVC_DEBUG=1 for details.");
    const debug = await svckitProcess(["new", "taken"], { cwd: folder.dir, env: { SVC_DEBUG: "1" } });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("reports its version, the one in cli/package.json", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "cli", "package.json"), "utf8"));
    const result = await svckitProcess(["--version"], { cwd: folder.dir });
    expect(result).toMatchObject({ code: 0, stdout: pkg.version });
  });
});

describe("create-svc", () => {
  it("runs svckit new (npm create svc my-ext -- --template errors)", async () => {
    const result = await new Promise<Outcome>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO, "cli", "create-svc", "index.js"), "my-errors", "--template", "errors"],
        {
          cwd: folder.dir,
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(existsSync(join(folder.dir, "my-errors", "src", "index.ts"))).toBe(true);
    const pkg = JSON.parse(await readFile(join(folder.dir, "my-errors", "package.json"), "utf8"));
    expect(pkg.svc).toMatchObject({ id: "com.example.my-errors", icon: "exclamationmark.triangle" });
  });
});
