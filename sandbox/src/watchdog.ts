/**
 * The owner thread's watchdog over one host thread. It sleeps on the thread's SliceBoard
 * (`Atomics.waitAsync`: no timer, no CPU while the thread is idle), arms one timer while a
 * slice runs, and reports the thread stuck when a slice outlives its `sliceMs` + margin, which
 * only happens inside a long native call that the interrupt handler cannot stop.
 */
import { SliceBoard, wallNow, type SliceNotice } from "./slice-board.js";

export interface Watchdog {
  stop(): void;
}

/**
 * @example const dog = watchHostThread(board, 250, (notice) => worker.terminate());
 */
export function watchHostThread(board: SliceBoard, marginMs: number, onStuck: (notice: SliceNotice) => void): Watchdog {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function check(): void {
    timer = undefined;
    if (stopped) return;
    const notice = board.read();
    if (!notice.busy) {
      board.waitWhileIdle().then(check, () => {});
      return;
    }
    const sliceMs = Number.isFinite(notice.sliceMs) ? notice.sliceMs : 0;
    const overdue = notice.startedAt + sliceMs + marginMs - wallNow();
    if (overdue <= 0) {
      stopped = true;
      onStuck(notice);
      return;
    }
    timer = setTimeout(check, Math.ceil(overdue));
  }

  check();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      board.wake();
    },
  };
}
