/**
 * Short-lived sandboxes, the same kind the app's runtime uses, for svckit's checks: load the
 * bundle (to find its tools) or run `update()` / a tool once. Each sandbox and its data folder
 * are freed when the work is done, whatever happens.
 *
 * The pool behind them (one sandbox thread, with its watchdog, so a stuck bundle cannot hang
 * svckit) is shared by back-to-back sessions and closed after a short idle time: starting a
 * sandbox thread costs far more than a sandbox on a running one, and `validate`, `pack` and each
 * rebuild of `dev` open several sessions in a row.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SandboxPool,
  type ForwardedCalls,
  type Permissions,
  type SandboxHandle,
  type SandboxEvent,
} from "@svc/sandbox";

export interface SessionOptions {
  id: string;
  code: string;
  permissions: Permissions;
  forwarded: ForwardedCalls;
  onEvent?(event: SandboxEvent): void;
}

/** How long an unused pool stays open for the next session. */
const POOL_IDLE_MS = 2_000;

let shared: { pool: SandboxPool; users: number; idle?: NodeJS.Timeout } | undefined;

function acquirePool(): NonNullable<typeof shared> {
  shared ??= { pool: new SandboxPool({ threads: 1 }), users: 0 };
  clearTimeout(shared.idle);
  shared.users += 1;
  return shared;
}

function releasePool(entry: NonNullable<typeof shared>): void {
  entry.users -= 1;
  if (entry.users > 0) return;
  entry.idle = setTimeout(() => {
    if (entry.users > 0) return;
    if (shared === entry) shared = undefined;
    void entry.pool.dispose();
  }, POOL_IDLE_MS);
  // An idle pool never keeps svckit running.
  entry.idle.unref();
}

/**
 * Runs `work` with a fresh sandbox holding `code`, in a temporary data folder (removed after).
 * Rejects with the crash reason when the sandbox dies during the work.
 *
 * @example
 * const loaded = await withSandbox({ id, code, permissions, forwarded }, (sandbox) => sandbox.load());
 */
export async function withSandbox<T>(
  options: SessionOptions,
  work: (sandbox: SandboxHandle, dataDir: string) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), "svckit-data-"));
  const entry = acquirePool();
  let crashed: (reason: Error) => void = () => {};
  const crash = new Promise<never>((_, reject) => (crashed = reject));
  crash.catch(() => {});
  let sandbox: SandboxHandle | undefined;
  try {
    const created = await entry.pool.create(
      { id: options.id, code: options.code, filename: "dist/index.js", permissions: options.permissions, dataDir },
      {
        forwarded: options.forwarded,
        onEvent: options.onEvent,
        onCrash: (info) => crashed(new Error(`the sandbox stopped: ${info.reason}`)),
      },
    );
    sandbox = created;
    return await Promise.race([work(created, dataDir), crash]);
  } finally {
    await sandbox?.dispose();
    releasePool(entry);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Closes the shared pool now, if nothing uses it (the executable calls this when its command
 * is done, so the process ends at once rather than after the idle time).
 *
 * @example
 * await closeSandboxes();
 */
export async function closeSandboxes(): Promise<void> {
  const entry = shared;
  if (!entry || entry.users > 0) return;
  clearTimeout(entry.idle);
  shared = undefined;
  await entry.pool.dispose();
}
