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
 * owners.within(7, () => runGuestEntry());      // calls made here are adopted: adoptAbortable(id) gives a signal
 * owners.end(7, { aborted: true });             // their signal aborts: timers cleared, fetches stopped
 */
import { setMaxListeners } from "node:events";

export class InvocationOwners {
  private current: number | undefined;
  private readonly ownerOfCall = new Map<number, number>();
  /**
   * Every invocation still running, with its AbortController once one of its calls needed a
   * signal. Made on first use: Node's AbortController costs ~10 µs with its listener setup, and
   * most invocations start no timer, fetch or program (an emit needs no signal).
   */
  private readonly running = new Map<number, AbortController | undefined>();

  /** An invocation starts: calls made on its behalf can now be ended with it. */
  begin(invocation: number): void {
    this.running.set(invocation, undefined);
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

  /**
   * Records a new host call under the current invocation, for the slice that delivers its answer.
   * False when unowned, or when the invocation already finished (the call outlives it, as before).
   */
  adopt(callId: number): boolean {
    if (this.current === undefined || !this.running.has(this.current)) return false;
    this.ownerOfCall.set(callId, this.current);
    return true;
  }

  /** `adopt`, and the signal that ends the call if its invocation ends early; undefined when unowned. */
  adoptAbortable(callId: number): AbortSignal | undefined {
    if (!this.adopt(callId)) return undefined;
    const invocation = this.current!;
    let controller = this.running.get(invocation);
    if (!controller) {
      controller = new AbortController();
      // One listener per host call the invocation started (each timer, fetch, program), as many as
      // the bridge's own limits allow (1,000 timers alone): not a leak, so no Node warning on stderr
      // because a guest armed its eleventh timer.
      setMaxListeners(0, controller.signal);
      this.running.set(invocation, controller);
    }
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
    const controller = this.running.get(invocation);
    this.running.delete(invocation);
    if (aborted) controller?.abort(new Error("the call that started it ended"));
  }
}
