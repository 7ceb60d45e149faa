/**
 * Where sandboxes come from. The runtime uses `@svc/sandbox`'s pool; the interface keeps the
 * lifecycle code independent of how the pool is built.
 */
import type { SandboxHandle, SandboxListeners, SandboxOptions } from "@svc/sandbox";
// The pool alone (not the package's index, which loads the in-process sandbox and its bridge):
// main.ts starts the sandbox threads before the rest of the runtime is loaded.
import { SandboxPool, type SandboxPoolOptions } from "@svc/sandbox/pool";

export interface SandboxFactory {
  /**
   * Starts the sandbox threads now, before `initialize` (optional): their start-up and warm-up
   * overlap the runtime's own, and `configure` then only hands them the person's settings.
   * Resolves once they are spawned (never rejects: the first `create` says what failed).
   */
  start?(): Promise<void>;
  /**
   * Called once by `initialize`, before any sandbox: guests see dates in the person's time zone
   * and format for their locale. Throws at once on a bad option; the promise settles once the
   * pool is warm (see `warm`).
   */
  configure?(options: { timeZone?: string; locale?: string; compiledCodeDir?: string }): void | Promise<void>;
  create(options: SandboxOptions, listeners: SandboxListeners): SandboxHandle | Promise<SandboxHandle>;
  /** Frees the pool itself (its sandbox threads) once every sandbox is disposed. */
  dispose?(): Promise<void> | void;
}

/**
 * The runtime's sandboxes: `@svc/sandbox`'s pool of sandbox threads, started by `start` (as the
 * process starts) or else by `configure` (at `initialize`), which resolves once they are warm: the
 * app's first loads find every sandbox thread up, warmed and holding its spare instance.
 *
 * @example
 * const sandboxes = createSandboxFactory();
 * await sandboxes.start?.(); // threads spawned, warming while the runtime loads the rest
 * sandboxes.configure?.({ timeZone: "Europe/Oslo", compiledCodeDir }); // throws RangeError on an unknown zone
 * const handle = await sandboxes.create(options, listeners);
 * await sandboxes.dispose?.();
 */
export function createSandboxFactory(defaults: SandboxPoolOptions = {}): SandboxFactory {
  let pool: SandboxPool | undefined;
  return {
    start: () => {
      pool ??= new SandboxPool(defaults);
      // `configure` waits for them to be warm; a failure is said by the first `create`.
      return pool.startThreads().catch(() => {});
    },
    configure: (options) => {
      if (pool) pool.configure(options);
      else pool = new SandboxPool({ ...defaults, ...options });
      return pool.warm();
    },
    create: (options, listeners) => (pool ??= new SandboxPool(defaults)).create(options, listeners),
    dispose: () => pool?.dispose(),
  };
}
