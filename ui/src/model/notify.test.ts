import { describe, expect, it } from "vitest";
import { NOTIFY_QUEUE_MAX, NotifyQueue, type NotifyLine } from "./notify.js";

function manualTimers() {
  const pending = new Map<number, { callback: () => void; at: number }>();
  let now = 0;
  let next = 1;
  return {
    set: (callback: () => void, ms: number) => {
      pending.set(next, { callback, at: now + ms });
      return next++;
    },
    clear: (handle: unknown) => void pending.delete(handle as number),
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at <= now) {
          pending.delete(id);
          timer.callback();
        }
      }
    },
  };
}

describe("NotifyQueue", () => {
  it("shows each line for showMs, one after another", () => {
    const timers = manualTimers();
    const seen: (string | undefined)[] = [];
    const queue = new NotifyQueue((line) => seen.push(line?.title), timers, 5000);
    queue.push({ title: "a" });
    queue.push({ title: "b" });
    expect(queue.current?.title).toBe("a");
    timers.advance(4999);
    expect(queue.current?.title).toBe("a");
    timers.advance(1);
    expect(queue.current?.title).toBe("b");
    timers.advance(5000);
    expect(queue.current).toBeUndefined();
    expect(seen).toEqual(["a", "b", undefined]);
  });

  it("a dismissed line makes way for the next at once", () => {
    const timers = manualTimers();
    const queue = new NotifyQueue(() => {}, timers, 5000);
    queue.push({ title: "a" });
    queue.push({ title: "b" });
    queue.dismiss();
    expect(queue.current?.title).toBe("b");
  });

  it(`keeps at most ${NOTIFY_QUEUE_MAX} waiting lines, dropping the oldest`, () => {
    const timers = manualTimers();
    const queue = new NotifyQueue(() => {}, timers, 10);
    const lines: NotifyLine[] = Array.from({ length: NOTIFY_QUEUE_MAX + 2 }, (_, i) => ({ title: String(i) }));
    for (const line of lines) queue.push(line);
    const shown = [queue.current?.title];
    for (let i = 0; i < lines.length; i++) {
      timers.advance(10);
      shown.push(queue.current?.title);
    }
    // "0" shows at once; of the 6 that waited, the oldest ("1") was dropped.
    expect(shown.filter(Boolean)).toEqual(["0", "2", "3", "4", "5", "6"]);
  });
});
