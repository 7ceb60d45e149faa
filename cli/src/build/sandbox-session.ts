/**
 * One short-lived sandbox, the same kind the app's runtime uses, for svckit's checks: load
 * the bundle (to find its tools) or run `update()` / a tool once. Everything is freed when
 * the work is done, whatever happens.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxPool, type HostCalls, type Permissions, type SandboxHandle, type SandboxEvent } from "@svc/sandbox";

export interface SessionOptions {
  id: string;
  code: string;
  permissions: Permissions;
  host: HostCalls;
  onEvent?(event: SandboxEvent): void;
}

/**
 * Runs `work` with a fresh sandbox holding `code`, in a temporary data folder (removed after).
 * Rejects with the crash reason when the sandbox dies during the work.
 *
 * @example
 * const loaded = await withSandbox({ id, code, permissions, host }, (sandbox) => sandbox.load());
 */
export async function withSandbox<T>(options: SessionOptions, work: (sandbox: SandboxHandle, dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), "svckit-data-"));
  // One host thread: the same sandbox the app runs, with its watchdog, so a stuck bundle cannot hang svckit.
  const pool = new SandboxPool({ threads: 1 });
  let crashed: (reason: Error) => void = () => {};
  const crash = new Promise<never>((_, reject) => (crashed = reject));
  crash.catch(() => {});
  let sandbox: SandboxHandle | undefined;
  try {
    const created = await pool.create(
      { id: options.id, code: options.code, filename: "dist/index.js", permissions: options.permissions, dataDir },
      {
        host: options.host,
        onEvent: options.onEvent,
        onCrash: (info) => crashed(new Error(`the sandbox stopped: ${info.reason}`)),
      },
    );
    sandbox = created;
    return await Promise.race([work(created, dataDir), crash]);
  } finally {
    await sandbox?.dispose();
    await pool.dispose?.();
    await rm(dataDir, { recursive: true, force: true });
  }
}
