/**
 * The slow-client rule of the host's streaming answers (`GET /v1/logs`, the UI feed): the host
 * never waits for a client, so one that leaves more than `maxUnreadBytes` unread is dropped.
 *
 * The first answer (a snapshot, a catch-up, a backlog) is the exception: it is written with
 * backpressure, however large, since cutting it would lock out every new client once the state
 * outgrows the limit (issue 31: 600 blips made a 1.3 MB snapshot and no page could open). What
 * is written meanwhile waits in memory, counted against `maxUnreadBytes`, and goes out once the
 * first answer has drained; from then on every write is held to the rule.
 */
import type { ServerResponse } from "node:http";

export interface SlowClientWriter {
  /** Writes `text` now, or after the first answer; calls `drop` when the rule is broken. */
  write(text: string): void;
  /** Stops listening for the first answer's drain (the stream is over). */
  dispose(): void;
}

/**
 * Starts a stream with `first` and returns the writer for what follows.
 *
 * @example
 * const out = writeWithBackpressure(res, snapshotText, { maxUnreadBytes: 1 << 20, drop: () => res.destroy() });
 * out.write(nextEvent);
 * res.on("close", out.dispose);
 */
export function writeWithBackpressure(
  res: ServerResponse,
  first: string,
  options: { maxUnreadBytes: number; drop(): void },
): SlowClientWriter {
  const { maxUnreadBytes, drop } = options;
  /** Writes that wait while the first answer drains; undefined once it has. */
  let held: string[] | undefined = [];
  let heldBytes = 0;
  const write = (text: string): void => {
    if (held) {
      held.push(text);
      heldBytes += Buffer.byteLength(text);
      if (heldBytes > maxUnreadBytes) drop();
      return;
    }
    res.write(text);
    if (res.writableLength > maxUnreadBytes) drop();
  };
  const release = (): void => {
    const waiting = held ?? [];
    held = undefined;
    for (const text of waiting) write(text);
  };
  if (res.write(first)) release();
  else res.once("drain", release);
  return { write, dispose: () => void res.off("drain", release) };
}
