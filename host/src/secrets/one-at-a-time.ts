/**
 * Read-modify-write of one stored value (an extension's sign-in tokens, its preference file)
 * must never interleave: two changes made at once would otherwise lose one of them.
 */

/**
 * Runs tasks one after another per key; different keys run side by side. A failed task does
 * not stop the ones queued after it.
 *
 * @example
 * const queue = new OneAtATime();
 * await queue.run("com.example.ci", async () => write(await read()));
 */
export class OneAtATime {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(task);
    this.#tails.set(key, result);
    const forget = () => {
      if (this.#tails.get(key) === result) this.#tails.delete(key);
    };
    result.then(forget, forget);
    return result;
  }
}
