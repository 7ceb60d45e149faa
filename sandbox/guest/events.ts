/** Minimal Event/EventTarget and AbortController/AbortSignal, as the web platform has them. */

/** The engine's own DOMException (as Node's, abort reasons are DOMExceptions), taken before any guest code runs. */
export const NativeDOMException = DOMException;

type Listener = ((event: Event) => void) | { handleEvent(event: Event): void };

export class Event {
  readonly type: string;
  readonly timeStamp = performance.now();
  defaultPrevented = false;
  target: EventTarget | null = null;
  currentTarget: EventTarget | null = null;
  readonly cancelable: boolean;
  constructor(type: string, init: { cancelable?: boolean } = {}) {
    if (arguments.length === 0) throw new TypeError("Event: the type argument is required");
    this.type = String(type);
    this.cancelable = Boolean(init.cancelable);
  }
  preventDefault(): void {
    if (this.cancelable) this.defaultPrevented = true;
  }
  stopPropagation(): void {}
  stopImmediatePropagation(): void {
    (this as { stopped?: boolean }).stopped = true;
  }
}

export class EventTarget {
  #listeners = new Map<string, { listener: Listener; once: boolean }[]>();

  addEventListener(
    type: string,
    listener: Listener | null,
    options: boolean | { once?: boolean; signal?: AbortSignal } = {},
  ): void {
    if (!listener) return;
    const opts = typeof options === "boolean" ? {} : options;
    if (opts.signal?.aborted) return;
    const list = this.#listeners.get(type) ?? [];
    if (list.some((entry) => entry.listener === listener)) return;
    list.push({ listener, once: Boolean(opts.once) });
    this.#listeners.set(type, list);
    opts.signal?.addEventListener("abort", () => this.removeEventListener(type, listener));
  }

  removeEventListener(type: string, listener: Listener | null): void {
    const list = this.#listeners.get(type);
    if (!list) return;
    const at = list.findIndex((entry) => entry.listener === listener);
    if (at >= 0) list.splice(at, 1);
  }

  dispatchEvent(event: Event): boolean {
    event.target = this;
    event.currentTarget = this;
    const handler = (this as Record<string, unknown>)[`on${event.type}`];
    const list = [...(this.#listeners.get(event.type) ?? [])];
    if (typeof handler === "function") list.unshift({ listener: handler as Listener, once: false });
    for (const entry of list) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      try {
        if (typeof entry.listener === "function") entry.listener.call(this, event);
        else entry.listener.handleEvent(event);
      } catch (error) {
        console.error(`Uncaught ${(error as Error)?.name ?? "Error"}: ${(error as Error)?.message ?? String(error)}`);
      }
      if ((event as { stopped?: boolean }).stopped) break;
    }
    return !event.defaultPrevented;
  }
}

export class AbortSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  static abort(reason?: unknown): AbortSignal {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }

  static timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    setTimeout(
      () => controller.abort(new NativeDOMException("The operation was aborted due to timeout", "TimeoutError")),
      ms,
    );
    return controller.signal;
  }

  static any(signals: AbortSignal[]): AbortSignal {
    const controller = new AbortController();
    for (const signal of signals) {
      if (signal.aborted) {
        controller.abort(signal.reason);
        break;
      }
      signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    }
    return controller.signal;
  }
}

export class AbortController {
  readonly signal = new AbortSignal();

  abort(reason?: unknown): void {
    const signal = this.signal;
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason === undefined ? new NativeDOMException("This operation was aborted", "AbortError") : reason;
    signal.dispatchEvent(new Event("abort"));
  }
}

export function installEvents(): void {
  const g = globalThis as Record<string, unknown>;
  g.Event = Event;
  g.EventTarget = EventTarget;
  g.AbortController = AbortController;
  g.AbortSignal = AbortSignal;
}
