/**
 * The `exec` op: runs an executable allowed by exec-policy.ts, never through a shell, with an
 * environment the host sets (PATH, HOME, LANG only), in its own process group so a timeout, an
 * output cap or the sandbox's disposal kills it and everything it started.
 */
import { spawn } from "node:child_process";
import { constants, homedir } from "node:os";
import { stat } from "node:fs/promises";
import type { OpCall, CapabilityContext, OpHandler } from "./context.js";
import { readArgs } from "./args.js";
import { checkExec, RUN_ANY_FIX } from "./exec-policy.js";
import { checkRead, isInside } from "./file-policy.js";
import { gitArgumentProblem, gitEnvironment } from "./git-rules.js";
import { deny } from "./denial.js";
import { EXEC_TAG_VARIABLE, killTaggedSoon } from "./process-tags.js";
import { describeBytes } from "./limits.js";
import type { ResolvedOptions } from "./options.js";

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** The exit code; 128 + the signal's number when a signal ended the process. */
  code: number;
}

/**
 * Builds the exec op bound to the given options.
 * @example await createExecOp(resolveOptions())({ file: "git", args: ["--version"] }, cx)
 */
export function createExecOp(options: ResolvedOptions): OpHandler {
  const { limits } = options;
  /** Processes running per sandbox, for the `execConcurrent` cap. */
  const running = new WeakMap<CapabilityContext, number>();
  let nextTag = 1;

  function parse(raw: unknown) {
    const args = readArgs("exec", raw);
    const file = args.string("file", { maxLength: 4096 });
    const argv = args.any("args") === undefined ? [] : args.stringArray("args", { maxItems: limits.execMaxArgs });
    if (argv.some((a) => a.includes("\0"))) throw new TypeError(`exec: "args" should not contain NUL characters`);
    const bytes = argv.reduce((sum, a) => sum + Buffer.byteLength(a), 0);
    if (bytes > limits.execArgsBytes) {
      throw new RangeError(
        `exec: "args" are ${bytes} bytes together, over the limit of ${describeBytes(limits.execArgsBytes)}`,
      );
    }
    const cwd = args.optionalString("cwd");
    const timeoutMs = args.optionalInteger("timeoutMs", 1, limits.execMaxTimeoutMs) ?? limits.execDefaultTimeoutMs;
    return { file, argv, cwd, timeoutMs };
  }

  /**
   * Takes one of the sandbox's `execConcurrent` slots at once, in call order (before any check
   * awaits), and gives it back when the program has ended or was refused.
   */
  async function execOp(raw: unknown, cx: CapabilityContext, call: OpCall = {}): Promise<ExecResult> {
    const args = parse(raw);
    const live = running.get(cx) ?? 0;
    if (live >= limits.execConcurrent)
      throw new Error(`exec: ${limits.execConcurrent} programs are already running; wait for one to finish`);
    running.set(cx, live + 1);
    try {
      return await run(args, cx, call);
    } finally {
      running.set(cx, (running.get(cx) ?? 1) - 1);
    }
  }

  async function run(
    { file, argv, cwd, timeoutMs }: ReturnType<typeof parse>,
    cx: CapabilityContext,
    call: OpCall,
  ): Promise<ExecResult> {
    const launch = await checkExec(cx, file, options.execPath, options);
    const dir = await checkRead(cx, "exec", cwd ?? cx.dataDir);
    if (!dir.exists || !(await stat(dir.real)).isDirectory())
      throw new Error(`exec: cwd "${cwd ?? "."}" is not a folder`);
    if (launch.git && !cx.permissions.runAnyCommand) {
      const problem = gitArgumentProblem(argv);
      if (problem)
        throw deny(cx, {
          kind: "exec",
          target: file,
          reason: `${problem} (git may not run other programs)`,
          fix: RUN_ANY_FIX,
        });
      if (isInside(dir.real, cx.dataDir)) {
        throw deny(cx, {
          kind: "exec",
          target: file,
          reason:
            "git may not work in a repository inside the data folder: the extension could have written its config",
          fix: "run git in a folder listed in svc.permissions.files",
        });
      }
    }
    if (cx.signal.aborted) throw new Error("exec: the sandbox is closing");
    const tag = `${options.execTag}.${nextTag++}`;
    const env = {
      PATH: options.execPath,
      HOME: homedir(),
      LANG: process.env.LANG ?? "C.UTF-8",
      [EXEC_TAG_VARIABLE]: tag,
      ...(launch.git ? gitEnvironment() : {}),
    };
    const child = spawn(launch.path, argv, {
      cwd: dir.real,
      env,
      detached: true,
      shell: false,
      stdio: ["ignore", "pipe", "pipe"],
    });
    /** Kills the program and everything it started, group or not. */
    const killAll = () => void killTaggedSoon(tag, child.pid);

    return new Promise<ExecResult>((resolve, reject) => {
      let failure: Error | undefined;
      const stop = (error: Error) => {
        failure ??= error;
        killAll();
      };
      const output = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
      const sizes = { stdout: 0, stderr: 0 };
      for (const name of ["stdout", "stderr"] as const) {
        child[name].on("data", (chunk: Buffer) => {
          sizes[name] += chunk.length;
          if (sizes[name] > limits.execOutputBytes) {
            return stop(
              new RangeError(
                `exec: the ${name} of ${file} is over the limit of ${describeBytes(limits.execOutputBytes)}; the process was stopped`,
              ),
            );
          }
          output[name].push(chunk);
        });
      }
      const timer = setTimeout(
        () =>
          stop(new Error(`exec: ${file} ran longer than ${timeoutMs} ms and was stopped with everything it started`)),
        timeoutMs,
      );
      const onDispose = () => stop(new Error("exec: the sandbox closed"));
      cx.signal.addEventListener("abort", onDispose, { once: true });
      // The invocation that started it ended early (its deadline): the program goes with it.
      const onCallEnded = () =>
        stop(new Error(`exec: the call that started ${file} ended, so it was stopped with everything it started`));
      call.signal?.addEventListener("abort", onCallEnded, { once: true });
      // When the program itself is done, whatever it left running goes too.
      child.on("exit", killAll);
      child.on("error", (error) => {
        const startFailed = new Error(`exec: could not start ${file}: ${error.message}`);
        if (child.pid !== undefined) return stop(startFailed);
        clearTimeout(timer);
        cx.signal.removeEventListener("abort", onDispose);
        call.signal?.removeEventListener("abort", onCallEnded);
        reject(startFailed);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        cx.signal.removeEventListener("abort", onDispose);
        call.signal?.removeEventListener("abort", onCallEnded);
        if (failure) return reject(failure);
        resolve({
          stdout: Buffer.concat(output.stdout).toString("utf8"),
          stderr: Buffer.concat(output.stderr).toString("utf8"),
          code: code ?? 128 + (signal ? constants.signals[signal] : 0),
        });
      });
    });
  }

  return execOp;
}
