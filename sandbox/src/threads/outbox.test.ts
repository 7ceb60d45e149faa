/**
 * Outbox: what one side of a sandbox thread sends together crosses as one batch, in order; a
 * batch never waits past the turn, and never holds more than MAX_BATCH.
 */
import { describe, expect, it } from "vitest";
import { MAX_BATCH, Outbox } from "./outbox.js";

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Outbox", () => {
  it("posts what is sent in one synchronous run, and in microtasks already queued, as one batch, in order", async () => {
    const posted: number[][] = [];
    const outbox = new Outbox<number>((batch) => posted.push(batch));
    queueMicrotask(() => outbox.send(3)); // queued before the first send: joins its batch
    outbox.send(1);
    outbox.send(2);
    queueMicrotask(() => outbox.send(4)); // queued after: the next batch, in the same turn
    expect(posted).toEqual([]);
    await turnEnd();
    expect(posted).toEqual([[1, 2, 3], [4]]);
    outbox.send(5);
    await turnEnd();
    expect(posted).toEqual([[1, 2, 3], [4], [5]]);
  });

  it(`posts a batch at once when it reaches ${MAX_BATCH} messages, the rest at the turn's end`, async () => {
    const posted: number[][] = [];
    const outbox = new Outbox<number>((batch) => posted.push(batch));
    for (let i = 0; i < MAX_BATCH - 1; i++) outbox.send(i);
    expect(posted).toEqual([]);
    outbox.send(MAX_BATCH - 1);
    expect(posted.map((batch) => batch.length)).toEqual([MAX_BATCH]);
    outbox.send(MAX_BATCH);
    await turnEnd();
    expect(posted.map((batch) => batch.length)).toEqual([MAX_BATCH, 1]);
    expect(posted.flat()).toEqual(Array.from({ length: MAX_BATCH + 1 }, (_, i) => i));
  });

  it("posts nothing for a turn in which nothing was sent", async () => {
    const posted: number[][] = [];
    const outbox = new Outbox<number>((batch) => posted.push(batch));
    outbox.flush();
    await turnEnd();
    expect(posted).toEqual([]);
  });
});
