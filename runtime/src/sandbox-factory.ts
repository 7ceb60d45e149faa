/**
 * Where sandboxes come from. The runtime uses `@svc/sandbox`'s pool; the interface keeps the
 * lifecycle code independent of how the pool is built.
 */
import { SandboxPool, type SandboxHandle, type SandboxListeners, type SandboxOptions, type SandboxPoolOptions } from "@svc/sandbox";

export interface SandboxFactory {
  create(options: SandboxOptions, listeners: SandboxListeners): SandboxHandle | Promise<SandboxHandle>;
  /** Frees the pool itself (its host threads) once every sandbox is disposed. */
  dispose?(): Promise<void> | void;
}

/**
 * The runtime's sandboxes: `@svc/sandbox`'s pool of host threads.
 *
 * @example
 * const sandboxes = createSandboxFactory({ timeZone: initialize.timeZone });
 * const handle = await sandboxes.create(options, listeners);
 * await sandboxes.dispose?.();
 */
export function createSandboxFactory(options: SandboxPoolOptions = {}): SandboxFactory {
  const pool = new SandboxPool(options);
  return { create: (options, listeners) => pool.create(options, listeners), dispose: () => pool.dispose() };
}
