/**
 * svc-hook's command line, designed for a person typing it into a hook script:
 *
 *   svc-hook start "Deploy api" [--id deploy-api] [--icon shippingbox] [--step "Building"]
 *   svc-hook step deploy-api 0.4 "Running migrations"
 *   svc-hook end deploy-api [success|failure|cancelled|warning] [--dismiss 30 | --keep]
 *   svc-hook remove deploy-api
 *   svc-hook send com.example.agents --wait 50 --otherwise '{"decision":"ask"}' < event.json
 */
import { MAX_AWAIT_SECONDS } from "../http/hook-route.js";

export type HookCommand =
  | { kind: "help" }
  | { kind: "start"; title: string; id?: string; icon?: string; step?: string }
  | { kind: "step"; id: string; fraction?: number; text?: string }
  | { kind: "end"; id: string; state: string; dismissAfter?: number }
  | { kind: "remove"; id: string }
  | {
      kind: "send";
      extensionId: string;
      /** The JSON text to send; undefined: read it from stdin. */
      body?: string;
      /** Seconds to wait for the extension's answer (`?await`); undefined: do not wait. */
      wait?: number;
      /** JSON text printed when no answer comes: the wait ran out, svc is not running, anything failed. */
      otherwise?: string;
    };

export interface ParsedArgs {
  command: HookCommand;
  /** `--strict`: exit 1 when the blip could not be shown, for trying svc-hook out by hand. */
  strict: boolean;
}

/** A mistake in the command line; the message says what to type instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Seconds an ended blip stays before it goes, unless `--dismiss` or `--keep` says otherwise. */
export const DEFAULT_DISMISS_SECONDS = 30;

export const USAGE = `Usage: svc-hook <command> [arguments] [options]

Shows work under way as a blip in svc. Never fails the hook that runs it: when svc is not
running or anything goes wrong, it prints one line on stderr and exits 0.

Commands:
  start <title> [--id <id>] [--icon <symbol>] [--step <text>]
                  show a running blip with a clock; prints its id
  step <id> [<fraction>] <text>
                  say what it is doing now; a fraction (0.4 or 40%) shows a progress bar
  end <id> [<state>] [--dismiss <seconds> | --keep]
                  end it: success (default), failure, cancelled or warning;
                  it goes away after ${DEFAULT_DISMISS_SECONDS} s unless --keep
  remove <id>     take it away now
  send <extension-id> [<json>] [--wait <seconds>] [--otherwise <json>]
                  hand JSON (the argument, else stdin) to an extension's onEvent; with
                  --wait, print its answer (JSON) on stdout, or the --otherwise JSON when
                  none comes in time (${MAX_AWAIT_SECONDS} s at most)

Options:
  --strict        exit 1 when the blip could not be shown (for trying things out)
  -h, --help      show this help

Examples:
  svc-hook start "Deploy api" --id deploy-api --icon shippingbox
  svc-hook step deploy-api 0.4 "Running migrations"
  svc-hook end deploy-api failure --keep
  svc-hook send app.svc.agents --wait 50 < hook-input.json
`;

const VALUE_OPTIONS = new Set(["id", "icon", "step", "dismiss", "wait", "otherwise"]);
const FLAG_OPTIONS = new Set(["keep", "strict", "help"]);

interface Split {
  positionals: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

function split(argv: readonly string[]): Split {
  const result: Split = { positionals: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      result.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      result.flags.add("help");
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      result.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (FLAG_OPTIONS.has(name) && eq === -1) {
      result.flags.add(name);
    } else if (VALUE_OPTIONS.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      result.options.set(name, value);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  return result;
}

/**
 * A fraction as typed: `0.4`, `.4`, `1` or `40%`. Undefined when `s` does not look like one.
 *
 * @example
 * parseFraction("40%") // 0.4
 */
export function parseFraction(s: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(s);
  if (!match) return undefined;
  const value = Number(match[1]) / (match[2] ? 100 : 1);
  if (value > 1) throw new UsageError(`the fraction ${s} is over 1: give 0–1 (0.4) or a percentage (40%)`);
  return value;
}

function onlyOptions(s: Split, allowed: string[], command: string): void {
  for (const name of s.options.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`--${name} does not go with ${command}`);
  }
  if (s.flags.has("keep") && !allowed.includes("keep")) throw new UsageError(`--keep does not go with ${command}`);
}

function want(s: Split, count: number, shape: string): string[] {
  const args = s.positionals.slice(1);
  if (args.length < count) throw new UsageError(`usage: svc-hook ${shape}`);
  return args;
}

/**
 * Parses svc-hook's arguments (without `node` and the script).
 *
 * @example
 * parseHookArgs(["step", "deploy-api", "0.4", "Running migrations"]).command
 * // { kind: "step", id: "deploy-api", fraction: 0.4, text: "Running migrations" }
 * @throws UsageError for anything it cannot read.
 */
export function parseHookArgs(argv: readonly string[]): ParsedArgs {
  const s = split(argv);
  const strict = s.flags.has("strict");
  const [name] = s.positionals;
  if (s.flags.has("help") || name === "help" || name === undefined) return { command: { kind: "help" }, strict };
  switch (name) {
    case "start": {
      const [title, ...extra] = want(s, 1, 'start "<title>" [--id <id>] [--icon <symbol>] [--step <text>]');
      if (extra.length)
        throw new UsageError(
          `start takes one title; put it in quotes: svc-hook start "${[title, ...extra].join(" ")}"`,
        );
      onlyOptions(s, ["id", "icon", "step"], "start");
      const { id, icon, step } = Object.fromEntries(s.options);
      return { command: { kind: "start", title, id, icon, step }, strict };
    }
    case "step": {
      const [id, first, second, ...extra] = want(s, 2, "step <id> [<fraction>] <text>");
      onlyOptions(s, [], "step");
      if (extra.length) throw new UsageError(`step takes an id, a fraction and one text; put the text in quotes`);
      if (second !== undefined) {
        const fraction = parseFraction(first);
        if (fraction === undefined)
          throw new UsageError(`"${first}" is not a fraction: give 0–1 (0.4) or a percentage (40%)`);
        return { command: { kind: "step", id, fraction, text: second }, strict };
      }
      const fraction = parseFraction(first);
      return {
        command: fraction === undefined ? { kind: "step", id, text: first } : { kind: "step", id, fraction },
        strict,
      };
    }
    case "end": {
      const [id, state = "success", ...extra] = want(s, 1, "end <id> [<state>] [--dismiss <seconds> | --keep]");
      if (extra.length) throw new UsageError("end takes an id and a state");
      onlyOptions(s, ["dismiss", "keep"], "end");
      const dismiss = s.options.get("dismiss");
      if (dismiss !== undefined && s.flags.has("keep")) throw new UsageError("give --dismiss or --keep, not both");
      if (dismiss !== undefined && !/^\d+(\.\d+)?$/.test(dismiss))
        throw new UsageError(`--dismiss takes seconds, like --dismiss 30`);
      const dismissAfter = s.flags.has("keep")
        ? undefined
        : dismiss === undefined
          ? DEFAULT_DISMISS_SECONDS
          : Number(dismiss);
      return { command: { kind: "end", id, state, dismissAfter }, strict };
    }
    case "remove": {
      const [id, ...extra] = want(s, 1, "remove <id>");
      if (extra.length) throw new UsageError("remove takes one id");
      onlyOptions(s, [], "remove");
      return { command: { kind: "remove", id }, strict };
    }
    case "send":
      return { command: parseSend(s), strict };
    default:
      throw new UsageError(`unknown command "${name}": use start, step, end, remove or send`);
  }
}

/** A JSON text given on the command line, checked here so a typo fails before anything is sent. */
function jsonText(text: string, what: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not JSON (${(error as Error).message}); quote it: '{"a": 1}'`);
  }
  return text;
}

function parseSend(s: Split): HookCommand {
  const [extensionId, body, ...extra] = want(
    s,
    1,
    "send <extension-id> [<json>] [--wait <seconds>] [--otherwise <json>]",
  );
  if (extra.length) throw new UsageError("send takes an extension id and one JSON body; put the body in quotes");
  onlyOptions(s, ["wait", "otherwise"], "send");
  const wait = s.options.get("wait");
  if (wait !== undefined && (!/^\d{1,4}$/.test(wait) || Number(wait) > MAX_AWAIT_SECONDS))
    throw new UsageError(`--wait takes whole seconds from 0 to ${MAX_AWAIT_SECONDS}, like --wait 50`);
  const otherwise = s.options.get("otherwise");
  if (otherwise !== undefined && wait === undefined)
    throw new UsageError("--otherwise goes with --wait: without a wait there is no answer to replace");
  return {
    kind: "send",
    extensionId,
    ...(body === undefined ? {} : { body: jsonText(body, "the body") }),
    ...(wait === undefined ? {} : { wait: Number(wait) }),
    ...(otherwise === undefined ? {} : { otherwise: jsonText(otherwise, "--otherwise") }),
  };
}
