/**
 * svc-hook (bin `svc-hook` → dist/hook/main.js): shows work under way as a blip, or hands an
 * agent's hook input to an extension and prints its answer (`send`); never fails
 * its caller. The launcher in `<support>/bin/svc-hook` runs it (see support/hook-launcher.ts).
 *
 * @example
 * await runHook(["start", "Deploy api", "--id", "deploy-api"], { stdout: console.log, stderr: console.error });
 */
export { runHook, type HookIo, type HookRunOptions } from "./run.js";
export {
  parseHookArgs,
  USAGE,
  UsageError,
  DEFAULT_DISMISS_SECONDS,
  type HookCommand,
  type ParsedArgs,
} from "./args.js";
export { HOOK_TIMEOUT_MS } from "./client.js";
