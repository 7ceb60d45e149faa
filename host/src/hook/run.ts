/**
 * svc-hook, whole: parse, talk to the app, report. Never throws and, unless `--strict`, always
 * returns 0, so the agent or git hook that called it carries on whatever happens.
 */
import type { V1Params, V1RouteName } from "@svc/api";
import { pushedBlipId, slugFromTitle } from "../store/blip-id.js";
import { supportPaths, supportRoot, type SupportPaths } from "../support/paths.js";
import { parseHookArgs, UsageError, USAGE, type HookCommand } from "./args.js";
import { callApp, HookError, HOOK_TIMEOUT_MS, type HookAnswer } from "./client.js";
import { forgetStart, recallStart, rememberStart, titleFromId } from "./hook-state.js";
import { errorLine } from "../support/command-output.js";

export interface HookIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

export interface HookRunOptions {
  env?: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
  now?: () => Date;
  /** All of stdin, for `send` without a body argument (agents hand their hook input there). */
  readStdin?: () => Promise<string>;
}

function answerError(answer: HookAnswer): HookError | undefined {
  if (answer.status >= 200 && answer.status < 300) return undefined;
  const { error } = (answer.body ?? {}) as { error?: unknown };
  const reason = typeof error === "string" ? error : `status ${answer.status}`;
  return new HookError(`svc refused it (${answer.status}): ${reason}`);
}

/** Performs one command; returns what to print on stdout (start prints the blip's id). */
async function perform(
  command: Exclude<HookCommand, { kind: "help" }>,
  paths: SupportPaths,
  options: Required<HookRunOptions>,
): Promise<string | undefined> {
  const call = async <N extends V1RouteName>(name: N, params: V1Params<N>, body?: unknown) => {
    const answer = await callApp(paths.webhookFile, name, params, body, options.timeoutMs);
    const error = answerError(answer);
    if (error) throw error;
    return answer.body as Record<string, unknown>;
  };
  switch (command.kind) {
    case "start": {
      const key = command.id ?? slugFromTitle(command.title);
      if (!key)
        throw new UsageError(`the title "${command.title}" has no letter or digit to make an id from: add --id <id>`);
      const id = pushedBlipId(key);
      const startedAt = options.now().toISOString();
      const data = { startedAt, ...(command.step ? { step: command.step } : {}) };
      await call(
        "pushBlips",
        {},
        {
          id,
          title: command.title,
          icon: command.icon,
          state: "running",
          layout: "session",
          data,
        },
      );
      await rememberStart(paths.hookState, id, { title: command.title, icon: command.icon, startedAt });
      return id;
    }
    case "step": {
      const id = pushedBlipId(command.id);
      const started = await recallStart(paths.hookState, id);
      const common = { id, title: started?.title ?? titleFromId(id), icon: started?.icon, state: "running" };
      const payload =
        command.fraction === undefined
          ? {
              ...common,
              layout: "session",
              data: { startedAt: started?.startedAt ?? options.now().toISOString(), step: command.text },
            }
          : {
              ...common,
              layout: "progress",
              data: { fraction: command.fraction, ...(command.text ? { step: command.text } : {}) },
            };
      await call("pushBlips", {}, payload);
      return undefined;
    }
    case "end": {
      const id = pushedBlipId(command.id);
      const body = {
        state: command.state,
        ...(command.dismissAfter === undefined ? {} : { dismissAfter: command.dismissAfter }),
      };
      await call("endBlip", { id }, body);
      await forgetStart(paths.hookState, id);
      return undefined;
    }
    case "remove": {
      const id = pushedBlipId(command.id);
      await call("removeBlip", { id });
      await forgetStart(paths.hookState, id);
      return undefined;
    }
    case "send":
      return send(command, paths, options);
  }
}

/**
 * `send`: one webhook event; with `--wait`, the extension's answer as JSON text. The wait is
 * the server's (`?await`), so the client allows it plus the usual margin.
 */
async function send(
  command: Extract<HookCommand, { kind: "send" }>,
  paths: SupportPaths,
  options: Required<HookRunOptions>,
): Promise<string | undefined> {
  const text = command.body ?? (await options.readStdin());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      text.trim() === ""
        ? "send needs a JSON body: give it as an argument or on stdin"
        : `the body on stdin is not JSON (${(error as Error).message})`,
    );
  }
  const query = command.wait === undefined ? undefined : { await: String(command.wait) };
  const timeoutMs = (command.wait ?? 0) * 1000 + options.timeoutMs;
  const answer = await callApp(paths.webhookFile, "hook", { extensionId: command.extensionId }, body, timeoutMs, query);
  const error = answerError(answer);
  if (error) throw error;
  if (command.wait === undefined) return undefined;
  // 204: the wait ran out (or the extension answered with no body): the caller decides.
  if (answer.status === 204 || answer.body === undefined) return command.otherwise;
  return JSON.stringify(answer.body);
}

/**
 * Runs svc-hook with `argv` (without `node` and the script). Returns the exit code: 0, or 1
 * for a failure under `--strict`.
 *
 * @example
 * const code = await runHook(["start", "Deploy api"], { stdout: console.log, stderr: console.error });
 */
export async function runHook(argv: readonly string[], io: HookIo, options: HookRunOptions = {}): Promise<number> {
  const strict = argv.includes("--strict");
  const resolved: Required<HookRunOptions> = {
    env: options.env ?? process.env,
    timeoutMs: options.timeoutMs ?? HOOK_TIMEOUT_MS,
    now: options.now ?? (() => new Date()),
    readStdin: options.readStdin ?? (async () => ""),
  };
  let otherwise: string | undefined;
  try {
    const { command } = parseHookArgs(argv);
    if (command.kind === "send") otherwise = command.otherwise;
    if (command.kind === "help") {
      io.stdout(USAGE);
      return 0;
    }
    const paths = supportPaths(supportRoot(resolved.env));
    const printed = await perform(command, paths, resolved);
    if (printed !== undefined) io.stdout(printed);
    return 0;
  } catch (error) {
    const known = error instanceof HookError || error instanceof UsageError;
    const message = known
      ? (error as Error).message
      : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    const hint = error instanceof UsageError ? " (svc-hook --help)" : "";
    // One line, and inert: the message can quote the app's answer or the caller's own words.
    io.stderr(errorLine("svc-hook", `${message}${hint}`.replace(/\s*\n\s*/g, " ")).trimEnd());
    // No answer came: the caller (an agent's hook) gets what it decides by itself.
    if (otherwise !== undefined) io.stdout(otherwise);
    return strict ? 1 : 0;
  }
}
