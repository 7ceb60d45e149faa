/**
 * The host's own requests that are still running inside each extension (`onAction`,
 * `onEvent`). A new `extension.load` replaces the extension's code and fails whatever is still
 * running there, so loading changed preferences waits until these are done: an `onAction` that
 * calls `ctx.setPreference` finishes before the reload it caused.
 */

/**
 * @example
 * const inFlight = new InFlight();
 * await inFlight.track("com.example.ci", supervisor.request(ExtensionAction, params));
 * await inFlight.idle("com.example.ci"); // resolves once nothing of that extension is running
 */
export class InFlight {
  readonly #running = new Map<string, Set<Promise<unknown>>>();

  /** Counts `work` as running for `id` until it settles; resolves or rejects as it does. */
  track<T>(id: string, work: Promise<T>): Promise<T> {
    const running = this.#running.get(id) ?? new Set<Promise<unknown>>();
    this.#running.set(id, running);
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    running.add(settled);
    void settled.then(() => {
      running.delete(settled);
      if (running.size === 0 && this.#running.get(id) === running) this.#running.delete(id);
    });
    return work;
  }

  /** Resolves once every request tracked for `id` (including ones started meanwhile) has settled. */
  async idle(id: string): Promise<void> {
    for (let running = this.#running.get(id); running && running.size > 0; running = this.#running.get(id)) {
      await Promise.all(running);
    }
  }
}
