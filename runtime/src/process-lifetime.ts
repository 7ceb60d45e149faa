/**
 * When a long-lived svc process (svc-runtime, svc-host) ends: on SIGTERM or SIGHUP, when its
 * parent dies, when the pipe it talks over closes — promptly and cleanly, never spinning on.
 *
 * The trap this avoids: a process whose stderr reader is gone gets EPIPE on its next write, an
 * `error` event nobody listens to becomes an uncaught exception, the handler writes about it to
 * stderr, gets EPIPE again … forever, at ~60 % of a core. So diagnostics go through
 * `quietWriter`, which never throws and goes silent once its stream has failed; and a clean stop
 * has a deadline, after which the process exits anyway.
 */
import type { Writable } from "node:stream";

/** How often the parent is looked for: once it is gone, the process is adopted (its ppid changes). */
const PARENT_CHECK_MS = 1000;
/** Longest a clean stop may take before the process exits anyway. */
export const STOP_DEADLINE_MS = 5000;

export interface QuietWriter {
  /** Writes while the stream lives; afterwards (or if the write throws) drops the text. */
  (text: string): void;
  /** True once the stream failed or closed. */
  readonly broken: boolean;
}

/**
 * A writer for diagnostics that can never raise: stream errors are caught (an `error` listener
 * is attached), and after the first one nothing more is written. `onBroken` runs once then.
 *
 * @example const note = quietWriter(process.stderr); note("svc-runtime: started\n");
 */
export function quietWriter(stream: Writable, onBroken?: () => void): QuietWriter {
  let broken = false;
  const fail = () => {
    if (broken) return;
    broken = true;
    onBroken?.();
  };
  stream.on("error", fail);
  stream.on("close", fail);
  const write = (text: string) => {
    if (broken || stream.destroyed || stream.writableEnded) return;
    try {
      stream.write(text);
    } catch {
      fail();
    }
  };
  return Object.defineProperty(write, "broken", { get: () => broken }) as QuietWriter;
}

export interface LifetimeOptions {
  /** Stops cleanly (state written, children ended); the process exits when it settles. */
  stop(reason: string): Promise<void> | void;
  /** Where to say why the process is stopping (a quiet writer). */
  note(message: string): void;
  /** Exit code after a clean stop. Default 0. */
  exitCode?: number;
  /** Default STOP_DEADLINE_MS. */
  deadlineMs?: number;
  /**
   * Look for the parent every second (default true). A process whose stdin is its parent's pipe
   * learns of the parent's death from stdin's end (the kernel closes the parent's end of the
   * pipe) and can skip it: each look wakes the process, ~0.17 ms of CPU a second at rest.
   */
  watchParent?: boolean;
}

export interface Lifetime {
  /** Stops once (later calls return the same promise), then exits; exits anyway at the deadline. */
  end(reason: string): Promise<void>;
}

/**
 * Ends the process on SIGTERM, SIGHUP and the parent's death (checked every second unless
 * `watchParent` is false), through one clean stop with a deadline. Callers add their own
 * triggers (stdin closed, stdout broken) with `end`.
 *
 * @example
 * const lifetime = endWithParent({ stop: () => service.stop(), note });
 * reader.listen(onFrame, () => void lifetime.end("stdin closed"));
 */
export function endWithParent(options: LifetimeOptions): Lifetime {
  let ending: Promise<void> | undefined;
  const end = (reason: string): Promise<void> => {
    if (ending) return ending;
    options.note(`${reason}: stopping`);
    clearInterval(parentWatch);
    // Ref'd on purpose: the process stays up until the stop settles or the deadline passes.
    const deadline = setTimeout(() => {
      options.note(`stopping took over ${options.deadlineMs ?? STOP_DEADLINE_MS} ms: exiting anyway`);
      process.exit(1);
    }, options.deadlineMs ?? STOP_DEADLINE_MS);
    ending = Promise.resolve()
      .then(() => options.stop(reason))
      .then(
        () => process.exit(options.exitCode ?? 0),
        (error: unknown) => {
          options.note(`stopping failed: ${(error as Error)?.message ?? String(error)}`);
          process.exit(1);
        },
      )
      .finally(() => clearTimeout(deadline));
    return ending;
  };
  for (const signal of ["SIGTERM", "SIGHUP"] as const) process.on(signal, () => void end(signal));
  const parent = process.ppid;
  const parentWatch =
    options.watchParent === false
      ? undefined
      : setInterval(() => {
          if (process.ppid !== parent) void end("the parent process is gone");
        }, PARENT_CHECK_MS).unref();
  return { end };
}
