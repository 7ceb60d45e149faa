/**
 * Per-extension gates that hold events back while an extension is being loaded or reloaded (or
 * its runtime restarts), so an event never meets a reload: it waits, then goes to the new load.
 * Each gate names why it is closed; it opens when every reason is gone.
 */

interface Gate {
  reasons: Set<string>;
  opened: Promise<void>;
  open(): void;
}

/**
 * @example
 * gates.close(id, "load");
 * await load(id);
 * gates.open(id, "load");
 * // elsewhere: await gates.pass(id); then send the event with nothing awaited in between
 */
export class LoadGates {
  readonly #gates = new Map<string, Gate>();

  /** True while events for `id` wait. */
  has(id: string): boolean {
    return this.#gates.has(id);
  }

  ids(): string[] {
    return [...this.#gates.keys()];
  }

  close(id: string, reason: string): void {
    const gate = this.#gates.get(id);
    if (gate) return void gate.reasons.add(reason);
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.#gates.set(id, { reasons: new Set([reason]), opened, open });
  }

  open(id: string, reason: string): void {
    const gate = this.#gates.get(id);
    if (!gate || !gate.reasons.delete(reason) || gate.reasons.size > 0) return;
    this.#gates.delete(id);
    gate.open();
  }

  /** `id` is gone: whatever waits for it goes on (and finds it unloaded). */
  release(id: string): void {
    const gate = this.#gates.get(id);
    this.#gates.delete(id);
    gate?.open();
  }

  /** Waits while `id`'s gate is closed; returns with it open (the caller then sends at once). */
  async pass(id: string): Promise<void> {
    for (let gate = this.#gates.get(id); gate; gate = this.#gates.get(id)) await gate.opened;
  }
}
