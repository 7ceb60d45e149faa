/**
 * `extension.status` notifications of one extension, sent strictly in the order they were
 * asked for even though reading the sandbox's diagnostics is asynchronous.
 */
import type { SandboxHandle, SandboxUsage } from "@svc/sandbox";
import type { Connection } from "./connection.js";
import { ExtensionStatusChanged, type ExtensionStatus } from "./protocol/index.js";

/** How long to wait for a busy sandbox's diagnostics before sending the status without them. */
const DIAGNOSTICS_WAIT_MS = 2000;

/** The figures the latest call brought back, else asked of the sandbox (what `loaded` sends). */
async function readUsage(handle: SandboxHandle | undefined): Promise<{ heapUsed?: number; cpuMs?: number }> {
  if (!handle) return {};
  const usage = handle.lastCallUsage ?? (await askDiagnostics(handle));
  if (!usage) return {};
  return { heapUsed: Math.max(0, Math.round(usage.heapUsed)), cpuMs: Math.max(0, Math.round(usage.cpuMs)) };
}

async function askDiagnostics(handle: SandboxHandle): Promise<SandboxUsage | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DIAGNOSTICS_WAIT_MS)));
  try {
    return await Promise.race([handle.diagnostics(), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @example
 * const reporter = new StatusReporter("com.example.ci", connection);
 * await reporter.send("idle", handle); // with heapUsed and cpuMs: the last call's, or asked
 */
export class StatusReporter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly extensionId: string,
    private readonly connection: Connection,
  ) {}

  /** Queues one status; resolves once it is written. `handle` supplies heapUsed/cpuMs. */
  send(status: ExtensionStatus, handle?: SandboxHandle, error?: string): Promise<void> {
    this.chain = this.chain.then(async () => {
      const usage = await readUsage(handle);
      this.connection.sendNotification(ExtensionStatusChanged, {
        extensionId: this.extensionId,
        status,
        ...usage,
        ...(error === undefined ? {} : { error }),
      });
    });
    return this.chain;
  }
}
