/**
 * The owner thread's watchdog over one sandbox thread. It sleeps on the thread's SliceBoard
 * (`Atomics.waitAsync`: no timer, no CPU while the thread is idle), arms one timer while a
 * slice runs, and reports the thread stuck when a slice has used more than its `sliceMs` +
 * margin of the thread's **CPU time**, which only happens inside a long native call that the
 * interrupt handler cannot stop. Wall time only says when to look: a slice waiting for a core
 * on a busy machine is not stuck.
 */
import { SliceBoard, wallNow, type SliceNotice } from "../engine/slice-board.js";
import { threadCpuClock, type CpuClock } from "../engine/thread-cpu.js";

export interface Watchdog {
  stop(): void;
}

/**
 * @example const dog = watchSandboxThread(board, 250, (notice) => worker.terminate());
 */
export function watchSandboxThread(
  board: SliceBoard,
  marginMs: number,
  onStuck: (notice: SliceNotice) => void,
): Watchdog {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let clock: CpuClock | undefined;

  function check(): void {
    timer = undefined;
    if (stopped) return;
    const notice = board.read();
    if (!notice.busy) {
      board.waitWhileIdle().then(check, () => {});
      return;
    }
    const limit = (Number.isFinite(notice.sliceMs) ? notice.sliceMs : 0) + marginMs;
    const wallLeft = notice.startedAt + limit - wallNow();
    if (wallLeft > 0) return arm(wallLeft);
    // CPU time never runs ahead of wall time, so until now it could not be over.
    clock ??= threadCpuClock(board.threadId || undefined);
    const cpuLeft = notice.startedAtCpu + limit - clock.now();
    const now = board.read();
    if (!now.busy || now.startedAt !== notice.startedAt) return check(); // that slice ended meanwhile
    if (cpuLeft > 0) return arm(cpuLeft);
    stopped = true;
    clock.close();
    onStuck(notice);
  }

  function arm(ms: number): void {
    timer = setTimeout(check, Math.max(1, Math.ceil(ms)));
  }

  check();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      clock?.close();
      board.wake();
    },
  };
}
