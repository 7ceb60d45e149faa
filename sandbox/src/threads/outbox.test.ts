/**
 * Outbox: the first message of a turn crosses at once; what follows in the turn crosses as one
 * batch, in order; a batch never waits past the turn, and never holds more than MAX_BATCH.
 */
import { describe, expect, it } from "vitest";
import { MAX_BATCH, Outbox, unpack, type Crossing } from "./outbox.js";

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An outbox whose crossings are recorded, each a number or an array of them. */
function recorded() {
  const posted: Crossing<{ n: number }>[] = [];
  const outbox = new Outbox<{ n: number }>((crossing) => posted.push(crossing));
  const shape = () => posted.map((c) => (Array.isArray(c) ? c.map((m) => m.n) : c.n));
  return { outbox, posted, shape };
}

describe("Outbox", () => {
  it("posts a turn's first message at once and the rest of the turn, microtasks already queued included, as one batch, in order", async () => {
    const { outbox, shape } = recorded();
    queueMicrotask(() => outbox.send({ n: 3 })); // queued before the first send: joins the batch
    outbox.send({ n: 1 });
    expect(shape()).toEqual([1]);
    outbox.send({ n: 2 });
    queueMicrotask(() => outbox.send({ n: 4 })); // queued after: a new turn's first message
    expect(shape()).toEqual([1]);
    await turnEnd();
    expect(shape()).toEqual([1, [2, 3], 4]);
    outbox.send({ n: 5 });
    outbox.send({ n: 6 });
    await turnEnd();
    expect(shape()).toEqual([1, [2, 3], 4, 5, 6]); // a batch of one crosses unwrapped
  });

  it(`posts a batch at once when it reaches ${MAX_BATCH} messages, the rest at the turn's end`, async () => {
    const { outbox, posted, shape } = recorded();
    for (let i = 0; i < MAX_BATCH; i++) outbox.send({ n: i }); // the first alone, then MAX_BATCH - 1
    expect(posted).toHaveLength(1);
    outbox.send({ n: MAX_BATCH });
    expect(shape().map((c) => (Array.isArray(c) ? c.length : 1))).toEqual([1, MAX_BATCH]);
    outbox.send({ n: MAX_BATCH + 1 });
    await turnEnd();
    expect(shape().map((c) => (Array.isArray(c) ? c.length : 1))).toEqual([1, MAX_BATCH, 1]);
    const all: number[] = [];
    for (const crossing of posted) unpack(crossing, (m) => all.push(m.n));
    expect(all).toEqual(Array.from({ length: MAX_BATCH + 2 }, (_, i) => i));
  });

  it("posts nothing for a turn in which nothing was sent", async () => {
    const { outbox, posted } = recorded();
    outbox.flush();
    await turnEnd();
    expect(posted).toEqual([]);
  });
});
