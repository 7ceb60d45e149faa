/**
 * Where sandboxes come from. The runtime uses `@svc/sandbox`'s pool; the interface keeps the
 * lifecycle code independent of how the pool is built.
 */
import { SandboxPool, type SandboxHandle, type SandboxListeners, type SandboxOptions, type SandboxPoolOptions } from "@svc/sandbox";

export interface SandboxFactory {
  /** Called once by `initialize`, before any sandbox: guests see dates in the person's time zone. */
  configure?(options: { timeZone?: string; locale?: string; compiledCodeDir?: string }): void;
  create(options: SandboxOptions, listeners: SandboxListeners): SandboxHandle | Promise<SandboxHandle>;
  /** Frees the pool itself (its host threads) once every sandbox is disposed. */
  dispose?(): Promise<void> | void;
}

/**
 * The runtime's sandboxes: `@svc/sandbox`'s pool of host threads, started by `configure` (that
 * is, at `initialize`, so its spare instance is ready before the first `extension.load`).
 *
 * @example
 * const sandboxes = createSandboxFactory();
 * sandboxes.configure?.({ timeZone: "Europe/Oslo", compiledCodeDir }); // throws RangeError on an unknown zone
 * const handle = await sandboxes.create(options, listeners);
 * await sandboxes.dispose?.();
 */
export function createSandboxFactory(defaults: SandboxPoolOptions = {}): SandboxFactory {
  let pool: SandboxPool | undefined;
  return {
    configure: (options) => {
      pool ??= new SandboxPool({ ...defaults, ...options });
    },
    create: (options, listeners) => (pool ??= new SandboxPool(defaults)).create(options, listeners),
    dispose: () => pool?.dispose(),
  };
}
