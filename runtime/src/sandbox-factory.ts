/**
 * Where sandboxes come from. The runtime uses `@svc/sandbox`'s pool; the interface keeps the
 * lifecycle code independent of how the pool is built.
 */
import type { SandboxHandle, SandboxListeners, SandboxOptions } from "@svc/sandbox";

export interface SandboxFactory {
  create(options: SandboxOptions, listeners: SandboxListeners): SandboxHandle | Promise<SandboxHandle>;
  /** Frees the pool itself (its host threads) once every sandbox is disposed. */
  dispose?(): Promise<void> | void;
}

import * as sandboxModule from "@svc/sandbox";

/**
 * The runtime's sandboxes: `@svc/sandbox`'s pool.
 *
 * @example
 * const sandboxes = createSandboxFactory();
 * const handle = await sandboxes.create(options, listeners);
 */
export function createSandboxFactory(): SandboxFactory {
  // TEMPORARY until the pool lands: resolved by name so this compiles before it exists.
  const Pool = (sandboxModule as Record<string, unknown>).SandboxPool as (new () => SandboxFactory) | undefined;
  if (!Pool) {
    // TEMPORARY: the in-thread Sandbox, straight from sandbox/dist, until the pool lands.
    const url = new URL("../../sandbox/dist/sandbox.js", import.meta.url).href;
    return {
      async create(options, listeners) {
        const { Sandbox } = (await import(url)) as { Sandbox: { create: SandboxFactory["create"] } };
        return Sandbox.create(options, listeners);
      },
    };
  }
  return new Pool();
}
