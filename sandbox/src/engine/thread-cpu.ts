/**
 * CPU time of one thread, in ms: what slices are timed by, so a busy machine (a laptop at login,
 * other programs burning both cores) never makes an innocent extension overrun its slice. Wall
 * time counts every moment the thread waited for a core; CPU time counts only its own work.
 *
 * Linux: the kernel's per-thread run time (`/proc/self/task/<tid>/schedstat`, ns; ~1 µs to
 * read), readable by any thread of the process, so the owner's watchdog reads a sandbox thread's
 * clock while that thread is stuck in a native call. Elsewhere (Node 20 has no per-thread clock):
 * the process's CPU time, an upper bound on any one thread's, so a slice is never judged
 * longer than it was — only, when other threads of the process are busy too, sooner.
 */
import { closeSync, openSync, readlinkSync, readSync } from "node:fs";

export interface CpuClock {
  /** CPU time the thread (or, as a fallback, the process) has used, in ms. */
  now(): number;
  close(): void;
  /** The descriptor it reads through, if any (process-wide: it outlives the thread that opened it). */
  readonly fd?: number;
}

/** This thread's kernel id (Linux), for another thread to read its clock; undefined elsewhere. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The clock of thread `tid` of this process (0 or undefined: the process clock).
 *
 * @example const clock = threadCpuClock(currentThreadId()); const start = clock.now();
 */
export function threadCpuClock(tid: number | undefined): CpuClock {
  if (tid) {
    try {
      return new SchedstatClock(openSync(`/proc/self/task/${tid}/schedstat`, "r"));
    } catch {
      // no procfs: the process clock below
    }
  }
  return PROCESS_CLOCK;
}

let own: CpuClock | undefined;

/** The calling thread's own clock (one per thread, kept open for the thread's life). */
export function ownCpuClock(): CpuClock {
  own ??= threadCpuClock(currentThreadId());
  return own;
}

const PROCESS_CLOCK: CpuClock = {
  now() {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
  close() {},
};

/** Reads the first field of schedstat (ns on a CPU) through one open descriptor: pread at 0 re-reads it. */
class SchedstatClock implements CpuClock {
  private readonly buffer = Buffer.alloc(96);
  private closed = false;

  constructor(readonly fd: number) {}

  now(): number {
    let length: number;
    try {
      if (this.closed) throw new Error("closed");
      length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    } catch {
      return PROCESS_CLOCK.now(); // the thread is gone: never less than its own time
    }
    let ns = 0;
    for (let i = 0; i < length; i++) {
      const digit = this.buffer[i] - 48;
      if (digit < 0 || digit > 9) break;
      ns = ns * 10 + digit;
    }
    return ns / 1e6;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
