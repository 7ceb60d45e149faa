/**
 * Keeps a host running for the shell: when the host the shell started exits on its own (a crash,
 * or someone stopped it), or a host it joined stops answering (asked every
 * {@link JOINED_CHECK_MS}), the shell starts or joins one again after 1 s, 2 s, 4 s … (at most
 * 30 s; back to 1 s once one is up) and hands the new link on, so the page can be loaded again
 * with a fresh ticket.
 */
import type { HostLink, StartHostOptions } from "./host-link.js";

export const RESTART_FIRST_MS = 1_000;
export const RESTART_MAX_MS = 30_000;
/** How often a joined host (one the shell did not start, so cannot see exit) is asked if it is there. */
export const JOINED_CHECK_MS = 5_000;

export interface HostKeeperOptions {
  connect(options: StartHostOptions): Promise<HostLink>;
  /** Everything but `onExit`, which the keeper owns. */
  connectOptions: Omit<StartHostOptions, "onExit">;
  /** A host is up again (not called for the first). */
  onRestarted(link: HostLink): Promise<void> | void;
  log(message: string): void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: any) => void;
}

export class HostKeeper {
  private current: HostLink | undefined;
  private stopped = false;
  private delayMs = RESTART_FIRST_MS;
  private timer: unknown;
  private readonly later: (callback: () => void, ms: number) => unknown;
  private readonly cancel: (handle: any) => void;

  constructor(private readonly options: HostKeeperOptions) {
    this.later = options.setTimeout ?? ((callback, ms) => setTimeout(callback, ms));
    this.cancel = options.clearTimeout ?? ((handle) => clearTimeout(handle));
  }

  get link(): HostLink {
    if (!this.current) throw new Error("HostKeeper: start() first");
    return this.current;
  }

  /** The first start or join: its failure is the caller's. */
  async start(): Promise<HostLink> {
    this.current = await this.connect();
    return this.current;
  }

  /** Stops the host the shell started (if any) and any restart to come. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel(this.timer);
    await this.current?.stop();
  }

  private async connect(): Promise<HostLink> {
    const link = await this.options.connect({
      ...this.options.connectOptions,
      onExit: (code, signal) => {
        this.options.log(
          `svc-host stopped on its own (${signal ?? `code ${code}`}); starting it again in ${this.delayMs / 1000} s`,
        );
        this.schedule();
      },
    });
    if (link.joined) this.watchJoined(link);
    return link;
  }

  private watchJoined(link: HostLink): void {
    const check = async () => {
      if (this.stopped || this.current !== link) return;
      if (await link.client.isLive()) return void (this.timer = this.later(check, JOINED_CHECK_MS));
      if (this.stopped || this.current !== link) return;
      this.options.log(`the svc-host this app joined is gone; starting one in ${this.delayMs / 1000} s`);
      this.schedule();
    };
    this.timer = this.later(check, JOINED_CHECK_MS);
  }

  private schedule(): void {
    if (this.stopped) return;
    const wait = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, RESTART_MAX_MS);
    this.timer = this.later(() => void this.restart(), wait);
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    try {
      const link = await this.connect();
      if (this.stopped) return void (await link.stop());
      this.current = link;
      this.delayMs = RESTART_FIRST_MS;
      await this.options.onRestarted(link);
    } catch (error) {
      this.options.log(
        `could not start svc-host again: ${(error as Error)?.message ?? String(error)}; trying again in ${this.delayMs / 1000} s`,
      );
      this.schedule();
    }
  }
}
