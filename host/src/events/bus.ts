/**
 * The host's one event bus. Everything the host reports (a runtime notification, a run, a
 * blip change, a log line) is published here once, as one {@link HostEvent}; whoever shows it
 * subscribes: the terminal display, the UI server's feed (`app/ui-backend.ts`) and
 * `GET /v1/logs` (`http/log-stream.ts`, through `follow`). A subscriber never publishes back
 * what it heard, so nothing is said twice.
 *
 * For `GET /v1/logs` the bus also keeps, per extension, the newest `log` and `status` events
 * stamped with the time they were published: a client that connects late (`svckit dev` after a
 * rebuild) sees what happened just before.
 */
/** A subscription: a `Disposable` (@svc/api) whose `dispose()` is synchronous. */
export interface Subscription {
  dispose(): void;
}
import type { HostEvent } from "./host-event.js";

/** A `log` or `status` event as `GET /v1/logs` sends it: stamped with when it was published. */
export type LogStreamEvent = Extract<HostEvent, { type: "log" | "status" }> & { at: string };

export type HostListener = (event: HostEvent) => void;
export type LogListener = (event: LogStreamEvent) => void;

/** How many log events are kept per extension (and for the host's own lines) for late listeners. */
export const DEFAULT_BACKLOG = 100;

/** A ring of the newest `limit` events. */
class Backlog {
  private readonly events: LogStreamEvent[] = [];
  constructor(private readonly limit: number) {}
  add(event: LogStreamEvent): void {
    this.events.push(event);
    if (this.events.length > this.limit) this.events.shift();
  }
  list(): LogStreamEvent[] {
    return [...this.events];
  }
}

/** Calls each listener; one listener's trouble is its own (a stream drops its client), the others still hear. */
function tell<T>(listeners: Iterable<(event: T) => void>, event: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch {
      // Deliberately quiet: reporting it would publish again, into the listener that failed.
    }
  }
}

/**
 * @example
 * const bus = new HostEvents();
 * bus.subscribe((event) => display.show(event));
 * const { backlog, dispose } = bus.follow("com.example.ci", (line) => write(line));
 * bus.publish({ type: "log", extensionId: "com.example.ci", level: "warn", message: "denied: …" });
 */
export class HostEvents {
  private readonly listeners = new Set<HostListener>();
  /** Extension id ("" for lines about no extension) → its newest log events. */
  private readonly backlogs = new Map<string, Backlog>();
  /** The newest log events of every extension together, for followers of everything. */
  private readonly everything: Backlog;
  /** Extension id, or undefined for "everything", → followers. */
  private readonly followers = new Map<string | undefined, Set<LogListener>>();

  constructor(private readonly options: { backlog?: number; now?: () => Date } = {}) {
    this.everything = new Backlog(this.limit);
  }

  private get limit(): number {
    return this.options.backlog ?? DEFAULT_BACKLOG;
  }

  /** Hands the event to every subscriber, in the order they subscribed, then to the log followers. Never throws. */
  publish(event: HostEvent): void {
    tell(this.listeners, event);
    if (event.type === "log" || event.type === "status") this.streamLine(event);
  }

  /** Hears every event published from now on. */
  subscribe(listener: HostListener): Subscription {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /**
   * Follows the `log` and `status` events of one extension (or, with `undefined`, all of them
   * and the host's own lines). `backlog` is what was kept from before, oldest first.
   */
  follow(extensionId: string | undefined, listener: LogListener): Subscription & { backlog: LogStreamEvent[] } {
    let set = this.followers.get(extensionId);
    if (!set) this.followers.set(extensionId, (set = new Set()));
    set.add(listener);
    const backlog = extensionId === undefined ? this.everything.list() : (this.backlogs.get(extensionId)?.list() ?? []);
    return {
      backlog,
      dispose: () => {
        set.delete(listener);
        if (set.size === 0 && this.followers.get(extensionId) === set) this.followers.delete(extensionId);
      },
    };
  }

  /** How many log streams follow the bus (tests watch a dropped client go). */
  get followerCount(): number {
    let count = 0;
    for (const set of this.followers.values()) count += set.size;
    return count;
  }

  private streamLine(event: Extract<HostEvent, { type: "log" | "status" }>): void {
    const line = { ...event, at: (this.options.now?.() ?? new Date()).toISOString() } as LogStreamEvent;
    const key = line.extensionId ?? "";
    let backlog = this.backlogs.get(key);
    if (!backlog) this.backlogs.set(key, (backlog = new Backlog(this.limit)));
    backlog.add(line);
    this.everything.add(line);
    tell(this.followers.get(undefined) ?? [], line);
    if (line.extensionId !== undefined) tell(this.followers.get(line.extensionId) ?? [], line);
  }
}
