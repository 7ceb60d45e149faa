/**
 * The host's runtime logs, fanned out to whoever listens (`GET /v1/logs`): every `log` and
 * `extension.status` notification becomes one {@link LogStreamEvent}, stamped with the time it
 * arrived. A short backlog per extension lets a client that connects late (`svckit dev` after
 * a rebuild) see what happened just before.
 */
import type { ExtensionStatusChanged, Log, ParamsOf } from "@svc/runtime";

/** One line of the log stream. `extensionId` is absent for the runtime's own words. */
export type LogStreamEvent =
  | ({ type: "log"; at: string } & ParamsOf<typeof Log>)
  | ({ type: "status"; at: string } & ParamsOf<typeof ExtensionStatusChanged>);

/** A runtime notification as the hub takes it: the event without its time. */
export type RuntimeLogNotification =
  ({ type: "log" } & ParamsOf<typeof Log>) | ({ type: "status" } & ParamsOf<typeof ExtensionStatusChanged>);

export type LogListener = (event: LogStreamEvent) => void;

/** How many events are kept per extension (and for the runtime's own lines) for late listeners. */
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

/**
 * @example
 * const logs = new LogHub();
 * const { backlog, unsubscribe } = logs.subscribe("com.example.ci", (event) => write(event));
 * logs.publish({ type: "log", extensionId: "com.example.ci", level: "warn", message: "denied: …" });
 */
export class LogHub {
  /** Extension id ("" for the runtime's own lines) → its newest events. */
  private readonly backlogs = new Map<string, Backlog>();
  /** The newest events of every extension together, for listeners of everything. */
  private readonly everything: Backlog;
  /** Extension id, or undefined for "every extension", → listeners. */
  private readonly listeners = new Map<string | undefined, Set<LogListener>>();

  constructor(private readonly options: { backlog?: number; now?: () => Date } = {}) {
    this.everything = new Backlog(this.limit);
  }

  private get limit(): number {
    return this.options.backlog ?? DEFAULT_BACKLOG;
  }

  /** Stamps the notification with the time and hands it to its listeners. Never throws. */
  publish(notification: RuntimeLogNotification): void {
    const event = { ...notification, at: (this.options.now?.() ?? new Date()).toISOString() } as LogStreamEvent;
    const key = event.extensionId ?? "";
    let backlog = this.backlogs.get(key);
    if (!backlog) this.backlogs.set(key, (backlog = new Backlog(this.limit)));
    backlog.add(event);
    this.everything.add(event);
    for (const target of event.extensionId === undefined ? [undefined] : [event.extensionId, undefined]) {
      for (const listener of this.listeners.get(target) ?? []) {
        try {
          listener(event);
        } catch {
          // A listener's trouble is its own (the stream drops its client); the others still hear.
        }
      }
    }
  }

  /**
   * Listens to one extension (or, with `undefined`, to every extension and the runtime's own
   * lines). `backlog` is what was kept from before, oldest first.
   */
  subscribe(
    extensionId: string | undefined,
    listener: LogListener,
  ): { backlog: LogStreamEvent[]; unsubscribe(): void } {
    let set = this.listeners.get(extensionId);
    if (!set) this.listeners.set(extensionId, (set = new Set()));
    set.add(listener);
    const backlog = extensionId === undefined ? this.everything.list() : (this.backlogs.get(extensionId)?.list() ?? []);
    return {
      backlog,
      unsubscribe: () => {
        set.delete(listener);
        if (set.size === 0 && this.listeners.get(extensionId) === set) this.listeners.delete(extensionId);
      },
    };
  }

  /** How many listeners are attached (tests use it to see a dropped client go). */
  get listenerCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
