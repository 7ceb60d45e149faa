/**
 * `extension.status` notifications of one extension, sent strictly in the order they were
 * asked for even though reading the sandbox's diagnostics is asynchronous.
 */
import type { SandboxHandle } from "@svc/sandbox";
import type { Connection } from "./connection.js";
import { ExtensionStatusChanged, type ExtensionStatus } from "./protocol/index.js";

/** How long to wait for a busy sandbox's diagnostics before sending the status without them. */
const DIAGNOSTICS_WAIT_MS = 2000;

async function readDiagnostics(handle: SandboxHandle | undefined): Promise<{ heapUsed?: number; cpuMs?: number }> {
  if (!handle) return {};
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DIAGNOSTICS_WAIT_MS)));
  try {
    const diagnostics = await Promise.race([handle.diagnostics(), late]);
    if (!diagnostics) return {};
    return {
      heapUsed: Math.max(0, Math.round(diagnostics.heapUsed)),
      cpuMs: Math.max(0, Math.round(diagnostics.cpuMs)),
    };
  } catch {
    return {};
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @example
 * const reporter = new StatusReporter("com.example.ci", connection);
 * await reporter.send("idle", handle); // with heapUsed and cpuMs read from the sandbox
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
      const usage = await readDiagnostics(handle);
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
