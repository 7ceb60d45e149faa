/**
 * Knows when an extension has gone quiet: every bridge call that does real work (fetch, storage,
 * files, exec, every forwarded `ctx` call) is counted while it runs. Timers are not counted:
 * they wait on the test's clock, which only the test moves.
 */
import type { Capabilities, ForwardedCalls } from "@svc/sandbox";

export class WorkTracker {
  private inFlight = 0;

  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    return work.finally(() => this.inFlight--);
  }

  /** The same capabilities, each async op counted. */
  capabilities(capabilities: Capabilities): Capabilities {
    type Handler = Capabilities["async"][string];
    const counted = Object.fromEntries(
      Object.entries(capabilities.async).map(([op, handler]): [string, Handler] => [
        op,
        (args, cx) => this.track(Promise.resolve().then(() => handler(args, cx))),
      ]),
    );
    return { ...capabilities, async: counted };
  }

  /** The same host calls, each counted. */
  forwardedCalls(host: ForwardedCalls): ForwardedCalls {
    return { forward: (op, args) => this.track(host.forward(op, args)) };
  }

  /**
   * Resolves once nothing has been in flight for two turns of the event loop in a row (a call
   * that finishes hands its answer to the guest, which may start the next one, in between).
   */
  async settled(): Promise<void> {
    for (let quiet = 0; quiet < 2;) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = this.inFlight === 0 ? quiet + 1 : 0;
    }
  }
}
