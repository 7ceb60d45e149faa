/**
 * Which invocation each host call belongs to, so an invocation that ends early (its deadline,
 * an abort, an interrupted slice) also ends what it started: its timers, fetches and programs.
 *
 * Ownership follows the guest's own control flow without asking the guest: a slice entered for
 * an invocation runs with that invocation as the current owner; every async host call made in
 * the slice is recorded with it; the slice that delivers that call's answer runs with the same
 * owner again (promise jobs run inside their slice, so `await` chains inherit it). Work started
 * at load time, or from a WebSocket event, has no owner and lives as long as the sandbox.
 *
 * @example
 * owners.begin(7);
 * owners.within(7, () => runGuestEntry());      // calls made here get owners.signalFor(id)
 * owners.end(7, { aborted: true });             // their signal aborts: timers cleared, fetches stopped
 */
import { setMaxListeners } from "node:events";

export class InvocationOwners {
  private current: number | undefined;
  private readonly ownerOfCall = new Map<number, number>();
  private readonly controllers = new Map<number, AbortController>();

  /** An invocation starts: calls made on its behalf can now be ended with it. */
  begin(invocation: number): void {
    const controller = new AbortController();
    // One listener per host call the invocation started (each timer, fetch, program), as many as
    // the bridge's own limits allow (1,000 timers alone): not a leak, so no Node warning on stderr
    // because a guest armed its eleventh timer.
    setMaxListeners(0, controller.signal);
    this.controllers.set(invocation, controller);
  }

  /** Runs `body` (one guest slice) with `owner` as the current invocation. */
  within<T>(owner: number | undefined, body: () => T): T {
    const before = this.current;
    this.current = owner;
    try {
      return body();
    } finally {
      this.current = before;
    }
  }

  /** Records a new host call under the current invocation; its signal, or undefined when unowned. */
  adopt(callId: number): AbortSignal | undefined {
    if (this.current === undefined) return undefined;
    const controller = this.controllers.get(this.current);
    if (!controller) return undefined; // the invocation already finished: the call outlives it, as before
    this.ownerOfCall.set(callId, this.current);
    return controller.signal;
  }

  /** The invocation a call belongs to, still remembered. */
  ownerOf(callId: number): number | undefined {
    return this.ownerOfCall.get(callId);
  }

  /** The invocation a call belongs to (for the slice that delivers its answer); forgets the call. */
  release(callId: number): number | undefined {
    const owner = this.ownerOfCall.get(callId);
    this.ownerOfCall.delete(callId);
    return owner;
  }

  /**
   * An invocation is over. When it ended early (`aborted`), everything it started is aborted;
   * when it finished normally, what it left running goes on, unowned.
   */
  end(invocation: number, { aborted }: { aborted: boolean }): void {
    const controller = this.controllers.get(invocation);
    this.controllers.delete(invocation);
    if (aborted) controller?.abort(new Error("the call that started it ended"));
  }
}
