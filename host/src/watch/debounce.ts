/**
 * Gathers items arriving in a burst and hands them over once the burst has been quiet for
 * `quietMs`: a build that writes ten files reloads an extension once.
 */

/**
 * @example
 * const batch = new QuietBatch<string>(200, (paths) => reload(paths));
 * batch.add("/ext/dist/index.js"); batch.add("/ext/dist/tools.json"); // one call, 200 ms after the last
 */
export class QuietBatch<T> {
  private items = new Set<T>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly quietMs: number,
    private readonly flush: (items: T[]) => void,
  ) {}

  add(item: T): void {
    this.items.add(item);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.quietMs);
  }

  /** Drops whatever is waiting. */
  cancel(): void {
    clearTimeout(this.timer);
    this.items.clear();
  }

  private fire(): void {
    const items = [...this.items];
    this.items.clear();
    if (items.length > 0) this.flush(items);
  }
}
