import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCapabilities, DEFAULT_LIMITS } from "./index.js";
import { checkExec } from "./exec-policy.js";
import type { ExecResult } from "./exec.js";
import { createTestContext, type TestContext } from "./test-context.js";
import { running } from "../../../test/process-state.js";

const MB = 1024 * 1024;
// Scripts written by the tests live in a temp folder the test user owns: allowed here only.
const caps = createCapabilities({ allowWritablePrograms: true });
let t: TestContext;
afterEach(() => t?.cleanup());
const exec = (args: object) => caps.async.exec(args, t.cx) as Promise<ExecResult>;

function context(exec: string[], runAnyCommand = false): TestContext {
  t = createTestContext({ exec, runAnyCommand });
  return t;
}

/** Writes an executable shell script in the test root and returns its path. */
function script(name: string, body: string): string {
  const path = join(t.root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("exec", () => {
  it("runs a listed bare name found on PATH and returns stdout, stderr and code", async () => {
    context(["echo"]);
    expect(await exec({ file: "echo", args: ["hello", "$HOME", "; rm -rf /"] })).toEqual({
      stdout: "hello $HOME ; rm -rf /\n",
      stderr: "",
      code: 0,
    });
  });

  it("resolves with a non-zero exit code and stderr", async () => {
    context([]);
    const path = script("fail.sh", "echo oops >&2; exit 3");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, exec: [path] } } });
    expect(await exec({ file: path })).toEqual({ stdout: "", stderr: "oops\n", code: 3 });
  });

  it("gives the child only PATH, HOME, LANG and its process tag, whatever the guest sends", async () => {
    context(["env"], true);
    process.env.LD_PRELOAD_TEST_MARKER = "1";
    try {
      const r = await exec({
        file: "env",
        args: [],
        env: { LD_PRELOAD: "/tmp/evil.so", NODE_OPTIONS: "--require x", PATH: "/tmp" },
      });
      expect(
        r.stdout
          .trim()
          .split("\n")
          .map((line) => line.split("=")[0])
          .sort(),
      ).toEqual(["HOME", "LANG", "PATH", "SVC_EXEC_TAG"]);
      expect(r.stdout).not.toContain("/tmp/evil.so");
    } finally {
      delete process.env.LD_PRELOAD_TEST_MARKER;
    }
  });

  it("runs in the data folder by default, or a readable cwd", async () => {
    context(["pwd"]);
    expect((await exec({ file: "pwd" })).stdout).toBe(`${t.cx.dataDir}\n`);
    mkdirSync(join(t.cx.dataDir, "sub"));
    expect((await exec({ file: "pwd", cwd: "sub" })).stdout).toBe(`${join(t.cx.dataDir, "sub")}\n`);
    await expect(exec({ file: "pwd", cwd: "/etc" })).rejects.toThrow(
      'file access to /etc denied: "/etc" is outside permissions.files',
    );
  });
});

describe("red team: exec", () => {
  it("a name not in the list is denied, naming the fix", async () => {
    context(["echo"]);
    await expect(exec({ file: "sh", args: ["-c", "id"] })).rejects.toThrow(
      'exec of sh denied: "sh" is not in permissions.exec (add "sh" to svc.permissions.exec in package.json)',
    );
    expect(t.denials).toEqual([
      {
        kind: "exec",
        target: "sh",
        reason: '"sh" is not in permissions.exec',
        fix: 'add "sh" to svc.permissions.exec in package.json',
      },
    ]);
  });

  it("relative paths and traversal are refused", async () => {
    context(["echo", "/usr/bin/echo"]);
    await expect(exec({ file: "./echo" })).rejects.toThrow(
      "exec of ./echo denied: relative paths are refused (use a bare name found on PATH or an absolute path)",
    );
    await expect(exec({ file: "bin/echo" })).rejects.toThrow("relative paths are refused");
    await expect(exec({ file: "/usr/bin/../bin/echo" })).rejects.toThrow(
      'exec of /usr/bin/../bin/echo denied: "." and ".." are not allowed in an executable path',
    );
  });

  it("a symlink to a binary that is not listed is denied", async () => {
    context(["echo"]);
    mkdirSync(join(t.root, "bin"));
    symlinkSync("/bin/sh", join(t.root, "bin", "echo"));
    const link = join(t.root, "bin", "echo");
    await expect(exec({ file: link, args: ["-c", "id"] })).rejects.toThrow(
      `exec of ${link} denied: "${link}" (it leads to "${realpathSync("/bin/sh")}") is not in permissions.exec`,
    );
  });

  it("a symlink to a listed binary launches the manifest's path, so it cannot choose argv[0]", async () => {
    context(["echo"]);
    symlinkSync("/usr/bin/echo", join(t.root, "sh"));
    expect(await checkExec(t.cx, join(t.root, "sh"), process.env.PATH ?? "")).toEqual({
      path: "/usr/bin/echo",
      git: false,
    });
    expect((await exec({ file: join(t.root, "sh"), args: ["ok"] })).stdout).toBe("ok\n");
  });

  it("a timeout kills the whole process group, grandchildren included", async () => {
    context([]);
    const pidFile = join(t.root, "grandchild.pid");
    const path = script("spawner.sh", `sleep 30 & echo $! > ${pidFile}\nwait`);
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, exec: [path] } } });
    const started = Date.now();
    await expect(exec({ file: path, timeoutMs: 300 })).rejects.toThrow(
      `exec: ${path} ran longer than 300 ms and was stopped with everything it started`,
    );
    // Far below the script's 30 s sleep, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(grandchild).toBeGreaterThan(0);
    await expect.poll(() => running(grandchild), { timeout: 10_000 }).toBe(false);
  });

  it("disposing the sandbox kills a running process", async () => {
    context(["sleep"]);
    const pending = exec({ file: "sleep", args: ["30"] });
    await new Promise((r) => setTimeout(r, 100));
    t.dispose();
    await expect(pending).rejects.toThrow("exec: the sandbox closed");
  });
});

describe("exec limits", () => {
  it("defaults: 10 s timeout, 60 s at most, 1 MB of output", () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      execConcurrent: 8,
      execDefaultTimeoutMs: 10_000,
      execMaxTimeoutMs: 60_000,
      execOutputBytes: MB,
      execMaxArgs: 1024,
      execArgsBytes: 256 * 1024,
    });
  });

  it("accepts a timeout of 60000 ms; refuses 60001 and 0", async () => {
    context(["echo"]);
    expect((await exec({ file: "echo", timeoutMs: 60_000 })).code).toBe(0);
    await expect(exec({ file: "echo", timeoutMs: 60_001 })).rejects.toThrow(
      'exec: "timeoutMs" should be an integer from 1 to 60000',
    );
    await expect(exec({ file: "echo", timeoutMs: 0 })).rejects.toThrow(
      'exec: "timeoutMs" should be an integer from 1 to 60000',
    );
  });

  it("captures exactly 1 MB of stdout; stops the process one byte past it", async () => {
    context(["head"]);
    expect((await exec({ file: "head", args: ["-c", String(MB), "/dev/zero"] })).stdout.length).toBe(MB);
    await expect(exec({ file: "head", args: ["-c", String(MB + 1), "/dev/zero"] })).rejects.toThrow(
      "exec: the stdout of head is over the limit of 1 MB (1048576 bytes); the process was stopped",
    );
  });

  it("caps stderr the same way", async () => {
    context([]);
    const path = script("noisy.sh", `head -c "$1" /dev/zero >&2`);
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, exec: [path] } } });
    expect((await exec({ file: path, args: [String(MB)] })).stderr.length).toBe(MB);
    await expect(exec({ file: path, args: [String(MB + 1)] })).rejects.toThrow("exec: the stderr of");
  });

  it("passes 1024 arguments; refuses 1025", async () => {
    context(["echo"]);
    expect((await exec({ file: "echo", args: Array(1024).fill("a") })).stdout.length).toBe(2048);
    await expect(exec({ file: "echo", args: Array(1025).fill("a") })).rejects.toThrow(
      'exec: "args" should be an array of at most 1024 strings',
    );
  });

  it("passes 256 KB of arguments; refuses one byte more; refuses non-strings and NUL", async () => {
    context(["echo"]);
    const chunk = "a".repeat(64 * 1024);
    expect((await exec({ file: "echo", args: [chunk, chunk, chunk, chunk] })).stdout.length).toBe(256 * 1024 + 4);
    await expect(exec({ file: "echo", args: [chunk, chunk, chunk, chunk + "a"] })).rejects.toThrow(
      'exec: "args" are 262145 bytes together, over the limit of 256 KB (262144 bytes)',
    );
    await expect(exec({ file: "echo", args: [1] })).rejects.toThrow('exec: "args" should be an array of strings');
    await expect(exec({ file: "echo", args: ["a\0b"] })).rejects.toThrow(
      'exec: "args" should not contain NUL characters',
    );
  });
});
