/**
 * Red team, exec: a listed program must not run an unlisted one; a cap on programs running at
 * once; no program the person can write; every descendant (setsid ones too) dies at timeout,
 * unload, crash and when the watchdog ends the sandbox thread. Each case beside two neighbours.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { SandboxPool } from "@svc/sandbox";
import { attackOptions, attacker, failure, root, withNeighbours, type Neighbours } from "./neighbours.js";
import { running, eventually } from "../process-state.js";

let n: Neighbours;
const repo = join(root, "repo");

beforeAll(async () => {
  n = await withNeighbours();
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "a.txt"), "a\n");
  git("add", "a.txt");
  git("commit", "-q", "-m", "first commit");
});
afterAll(() => n.dispose());

const RUN_ANY =
  'only if it must: add "runAnyCommand": true to svc.permissions in package.json; the install summary then says it can run any command';

/** Runs `ctx.exec(file, args, opts)` in an attacker and returns its message or stdout. */
function tryExec(file: string, args: string[], opts: object = {}) {
  return `try { return (await ctx.exec(${JSON.stringify(file)}, ${JSON.stringify(args)}, ${JSON.stringify(opts)})).stdout } catch (e) { return "refused: " + e.message }`;
}

describe("a listed program cannot run an unlisted one", () => {
  const marker = () => join(root, `pwned-${Math.random().toString(36).slice(2)}`);

  it.each([
    [
      "git -c alias.x='!cmd' x",
      (m: string) => ["-c", `alias.x=!touch ${m}`, "x"],
      'the option "-c" is not allowed before the subcommand',
    ],
    [
      "git ls-remote --upload-pack=…",
      (m: string) => ["ls-remote", `--upload-pack=touch ${m}`, repo],
      'the option "--upload-pack" is not allowed',
    ],
    [
      "an abbreviated --upload-p",
      (m: string) => ["ls-remote", `--upload-p=touch ${m}`, repo],
      'the option "--upload-pack" is not allowed',
    ],
    [
      "git ls-remote -u …",
      (m: string) => ["ls-remote", "-u", `touch ${m}`, repo],
      'the option "-u" is not allowed in git ls-remote',
    ],
    [
      "ext::sh -c …",
      (m: string) => ["ls-remote", `ext::sh -c touch% ${m}`],
      `the address "ext::sh -c touch% MARK" uses a transport other than https`,
    ],
    [
      "git clone --template (hooks)",
      (m: string) => ["clone", `--template=${m}`, "https://example.com/x.git"],
      'the option "--template" is not allowed',
    ],
    [
      "git clone -c core.fsmonitor",
      (m: string) => ["clone", "-c", `core.fsmonitor=touch ${m}`, "https://example.com/x.git"],
      'the option "-c" is not allowed in git clone',
    ],
    [
      "git config (a later fsmonitor)",
      (m: string) => ["config", "core.fsmonitor", `touch ${m}`],
      'the subcommand "config" is not one git may run for an extension',
    ],
    [
      "git log --output writes anywhere",
      (m: string) => ["log", `--output=${m}`],
      'the option "--output" is not allowed',
    ],
    ["git help runs man", () => ["log", "--help"], 'the option "--help" is not allowed'],
  ])("%s is refused and runs nothing", async (_name, argsFor, reason) => {
    const m = marker();
    const args = argsFor(m);
    const { run } = await attacker(
      n.pool,
      attackOptions(tryExec("git", args, { cwd: repo }), { exec: ["git"], files: [repo] }),
    );
    const expected = `refused: exec of git denied: ${reason.replace("MARK", m)} (git may not run other programs) (${RUN_ANY})`;
    await expect(run()).resolves.toBe(expected);
    expect(existsSync(m)).toBe(false);
    await n.check();
  });

  it("git's own transport check stops ext:: even when the arguments get past the rules", async () => {
    // Defence in depth: GIT_ALLOW_PROTOCOL=https, shown with runAnyCommand (no argument rules).
    const m = marker();
    const { run } = await attacker(
      n.pool,
      attackOptions(
        `const r = await ctx.exec("git", ["ls-remote", "ext::sh -c touch% ${m}"], { cwd: ${JSON.stringify(repo)} }); return [r.code, r.stderr]`,
        { exec: ["git"], files: [repo], runAnyCommand: true },
      ),
    );
    const [code, stderr] = (await run()) as [number, string];
    expect(code).not.toBe(0);
    expect(stderr).toContain("transport 'ext' not allowed");
    expect(existsSync(m)).toBe(false);
    await n.check();
  });

  it("plain git still works: log and status in a listed repository", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(
        `const log = await ctx.exec("git", ["log", "--format=%s"], { cwd: ${JSON.stringify(repo)} });
       const status = await ctx.exec("git", ["status", "--porcelain"], { cwd: ${JSON.stringify(repo)} });
       return [log.stdout, status.code]`,
        { exec: ["git"], files: [repo] },
      ),
    );
    await expect(run()).resolves.toEqual(["first commit\n", 0]);
    await n.check();
  });

  it("git is refused in a repository inside the data folder (its config is the extension's to write)", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(
        `await ctx.files.write("r/.git/config", "[core]\\n\\tfsmonitor = touch pwned\\n"); ${tryExec("git", ["status"], { cwd: "r" })}`,
        { exec: ["git"] },
      ),
    );
    await expect(run()).resolves.toBe(
      "refused: exec of git denied: git may not work in a repository inside the data folder: the extension could have written its config (run git in a folder listed in svc.permissions.files)",
    );
    await n.check();
  });

  it.each([
    ["env sh -c …", "env", ["sh", "-c", "id"]],
    ["sh -c …", "sh", ["-c", "id"]],
    ["find -exec …", "find", [".", "-exec", "id", ";"]],
    ["xargs …", "xargs", ["id"]],
    ["python3 -c …", "python3", ["-c", "print(1)"]],
  ])("%s is refused unless the manifest says runAnyCommand", async (_name, file, args) => {
    const { run } = await attacker(n.pool, attackOptions(tryExec(file, args), { exec: [file] }));
    await expect(run()).resolves.toBe(
      `refused: exec of ${file} denied: "${file}" runs other programs, so listing it would let the extension run any command (${RUN_ANY})`,
    );
    await n.check();
  });

  it.each([
    ["cp", (victim: string) => ["/etc/hostname", victim]],
    ["mv", (victim: string) => ["/dev/null", victim]],
    ["tee", (victim: string) => [victim]],
    ["dd", (victim: string) => ["if=/dev/null", `of=${victim}`]],
    ["install", (victim: string) => ["/etc/hostname", victim]],
    ["ln", (victim: string) => ["-sf", "/etc/hostname", victim]],
    ["truncate", (victim: string) => ["-s", "0", victim]],
    ["unzip", (victim: string) => ["-o", "x.zip", "-d", victim]],
    ["/usr/bin/cp", (victim: string) => ["/etc/hostname", victim]],
  ])(
    "%s writes files anywhere: refused unless the manifest says runAnyCommand, and nothing is written",
    async (file, args) => {
      const victim = join(root, `package-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(victim, '{"svc":{"permissions":{}}}');
      const { run } = await attacker(n.pool, attackOptions(tryExec(file, args(victim)), { exec: [file] }));
      await expect(run()).resolves.toBe(
        `refused: exec of ${file} denied: "${file}" writes files anywhere (any installed package, svc's own files, ~/.bashrc), so listing it would let the extension do whatever you can (${RUN_ANY})`,
      );
      expect(readFileSync(victim, "utf8")).toBe('{"svc":{"permissions":{}}}');
      await n.check();
    },
  );

  it('with "runAnyCommand": true, env sh -c runs (what the install summary calls "can run any command")', async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(tryExec("env", ["sh", "-c", "echo ran"]), { exec: ["env"], runAnyCommand: true }),
    );
    await expect(run()).resolves.toBe("ran\n");
    await n.check();
  });
});

describe("programs the person can write are refused", () => {
  it.each([
    ["a world-writable program", 0o755, 0o777],
    ["a program in a world-writable folder", 0o777, 0o755],
  ])("%s", async (name, folderMode, fileMode) => {
    const folder = join(root, `bin-${folderMode.toString(8)}-${fileMode.toString(8)}`);
    mkdirSync(folder);
    const program = join(folder, "tool");
    writeFileSync(program, "#!/bin/sh\necho ran\n");
    chmodSync(program, fileMode);
    chmodSync(folder, folderMode);
    const { run } = await attacker(n.pool, attackOptions(tryExec(program, []), { exec: [program] }));
    const what = fileMode === 0o777 ? "the file" : "its folder";
    await expect(run()).resolves.toBe(
      `refused: exec of ${program} denied: "${program}" could be replaced by another program: ${what} can be written without being root (install the program in a system folder such as /usr/bin)`,
    );
    await n.check();
  });
});

describe("how many programs run at once", () => {
  it("8 programs run at once; the 9th is refused; once one ends another may start", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(
        `
      const runs = [];
      for (let i = 0; i < 8; i++) runs.push(ctx.exec("sleep", ["0.5"]));
      let ninth; try { await ctx.exec("echo", ["x"]) } catch (e) { ninth = e.message }
      await Promise.all(runs);
      const after = (await ctx.exec("echo", ["again"])).stdout;
      return [ninth, after]`,
        { exec: ["sleep", "echo"] },
      ),
    );
    await expect(run()).resolves.toEqual(["exec: 8 programs are already running; wait for one to finish", "again\n"]);
    await n.check();
  });
});

describe("every descendant dies, setsid ones too", () => {
  /** Starts `sh` that leaves a setsid'd `sleep 30` (its pid in the data folder's pid file), then waits. */
  const SPAWN = `ctx.exec("sh", ["-c", "setsid sleep 30 & echo $! > pid; exec sleep 30"], { timeoutMs: 60000 })`;
  const readPid = async (dataDir: string) => {
    const file = join(dataDir, "pid");
    expect(await eventually(() => existsSync(file) && readFileSync(file, "utf8").trim() !== "")).toBe(true);
    return Number(readFileSync(file, "utf8"));
  };
  const sh = { exec: ["sh"], runAnyCommand: true };

  it("at timeout", async () => {
    const options = attackOptions(
      `try { await ctx.exec("sh", ["-c", "setsid sleep 30 & echo $! > pid; exec sleep 30"], { timeoutMs: 500 }) } catch (e) { return e.message }`,
      sh,
    );
    const { run } = await attacker(n.pool, options);
    await expect(run()).resolves.toBe("exec: sh ran longer than 500 ms and was stopped with everything it started");
    const pid = await readPid(options.dataDir);
    expect(await eventually(() => !running(pid))).toBe(true);
    await n.check();
  });

  it("at unload (dispose)", async () => {
    const options = attackOptions(`${SPAWN}.catch(() => {}); return "started"`, sh);
    const { handle, run } = await attacker(n.pool, options);
    await expect(run()).resolves.toBe("started");
    const pid = await readPid(options.dataDir);
    expect(running(pid)).toBe(true);
    await handle.dispose();
    expect(await eventually(() => !running(pid))).toBe(true);
    await n.check();
  });

  it("at a crash (out of memory)", async () => {
    const options = attackOptions(
      `${SPAWN}.catch(() => {});
      while (!(await ctx.files.exists("pid"))) await new Promise((r) => setTimeout(r, 10));
      const keep = []; for (;;) keep.push(new Uint8Array(1 << 20));`,
      sh,
      { limits: { memoryBytes: 16 * 1024 * 1024 } },
    );
    const { run } = await attacker(n.pool, options);
    expect((await failure(run())).code).toBe("crashed");
    const pid = await readPid(options.dataDir);
    expect(await eventually(() => !running(pid))).toBe(true);
    await n.check();
  });

  it("when the watchdog ends the sandbox thread (the registry lives outside it)", async () => {
    const stallPool = new SandboxPool({ threads: 1, watchdogMarginMs: 250 });
    try {
      const options = attackOptions(
        `${SPAWN}.catch(() => {});
        while (!(await ctx.files.exists("pid"))) await new Promise((r) => setTimeout(r, 10));
        return (new Array(1e9) + "").length;`,
        sh,
        { limits: { sliceMs: 300 } },
      );
      const { run } = await attacker(stallPool, options);
      const error = await failure(run());
      expect(error.message).toBe("the sandbox crashed: interrupted: slice over 300 ms inside a native call");
      const pid = await readPid(options.dataDir);
      expect(await eventually(() => !running(pid))).toBe(true);
    } finally {
      await stallPool.dispose();
    }
    await n.check();
  });
});
