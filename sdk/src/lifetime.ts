/**
 * One lifetime shape for svc's own pieces (quickjs-emscripten's style): whatever holds a
 * resource has `dispose()`, and a `Scope` takes a whole assembly down in the reverse order it
 * was built, each piece once. Extension authors never need these.
 */

/** Something that holds a resource until `dispose()` (which may be async, and is safe to call twice). */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** A function as a {@link Disposable}. */
export function disposable(dispose: () => void | Promise<void>): Disposable {
  return { dispose };
}

/**
 * A stack of disposables: `dispose()` takes them down last-in first-out, one after the other,
 * every one even when an earlier one throws (the first error is rethrown at the end; several
 * come as an `AggregateError`). Something added once the scope is disposed is disposed at once.
 *
 * @example
 * const scope = new Scope();
 * const store = scope.use(await BlipStore.open(file));
 * scope.defer(() => server.close());
 * await scope.dispose(); // server closed, then the store
 */
export class Scope implements Disposable {
  private readonly stack: Disposable[] = [];
  private disposing: Promise<void> | undefined;

  /** True once `dispose()` was called. */
  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /** Adds `resource`, to be disposed before everything added earlier; returns it. */
  use<T extends Disposable>(resource: T): T {
    if (this.disposing) void Promise.resolve(resource.dispose()).catch(() => {});
    else this.stack.push(resource);
    return resource;
  }

  /** Adds a function to run at `dispose()`, before everything added earlier. */
  defer(dispose: () => void | Promise<void>): void {
    this.use(disposable(dispose));
  }

  /** Disposes everything added, newest first; a second call waits for the first. */
  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  private async disposeAll(): Promise<void> {
    const errors: unknown[] = [];
    while (this.stack.length > 0) {
      try {
        await this.stack.pop()!.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} pieces failed to stop`);
  }
}
