/**
 * Runs guest code in slices. A slice is one entry into the interpreter plus every promise job
 * that entry queued; the interrupt handler stops it once it has used `sliceMs` of the thread's
 * CPU time (thread-cpu.ts): time spent waiting for a core on a busy machine does not count, so
 * load never makes an innocent extension overrun. Each slice is announced on
 * the sandbox thread's SliceBoard so the owner's watchdog can end a thread stuck inside one
 * native call, where the interrupt handler never runs (quickjs-emscripten issue 219).
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { SliceBoard } from "./slice-board.js";
import { ownCpuClock } from "./thread-cpu.js";
import { runPendingJobs } from "./lean-reads.js";

/**
 * How old a CPU clock reading may be to stand for a slice's start, ms (the previous slice's end, in a busy stretch).
 */
const CLOCK_REUSE_MS = 1;

export interface SliceStats {
  cpuMs: number;
  longestSliceMs: number;
  interruptedSlices: number;
}

/** Where a sandbox announces its slices: the sandbox thread's board and its slot there. */
export interface SlicePlacement {
  board: SliceBoard;
  slot: number;
}

export interface SliceOutcome<T> {
  /** What the body returned. */
  value: T;
  /** The interrupt handler stopped the slice at its limit. */
  interrupted: boolean;
  /** Messages of errors that escaped the guest (uncatchable ones, or the prelude failing). */
  escaped: string[];
  /** CPU time the slice used, ms. */
  cpuMs: number;
}

/**
 * @example
 * const slices = new SliceRunner(runtime, context, 1000);
 * const outcome = slices.run(() => context.callFunction(fn, context.undefined).dispose());
 */
export class SliceRunner {
  readonly stats: SliceStats = { cpuMs: 0, longestSliceMs: 0, interruptedSlices: 0 };
  private readonly cpu = ownCpuClock();
  /** The slice's start on the thread's CPU clock. */
  private cpuStart = 0;
  /**
   * Wall time (performance.now) before which the slice cannot be over: CPU time never runs
   * ahead of wall time, so the clock is read only once wall time says it might be.
   */
  private checkAt = 0;
  /** The last CPU clock reading, and when it was taken (performance.now). */
  private lastRead = 0;
  private lastReadAt = -Infinity;
  /** Interrupt at the next check, whatever the time (reading an escaped error must run no guest code). */
  private stopNow = false;
  private fired = false;
  private active = false;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private sliceMs: number,
    private placement?: SlicePlacement,
  ) {
    runtime.setInterruptHandler(() => {
      if (this.stopNow) return true;
      if (performance.now() <= this.checkAt) return false;
      return this.overdue();
    });
  }

  /** Sets the limit and the board slot of the sandbox this runner now serves (a prepared instance being bound). */
  configure(sliceMs: number, placement?: SlicePlacement): void {
    if (this.active) throw new Error("internal: cannot reconfigure during a slice");
    this.sliceMs = sliceMs;
    this.placement = placement;
  }

  get inSlice(): boolean {
    return this.active;
  }

  /**
   * True when the running slice is past its deadline; the slice then counts as interrupted,
   * whether or not QuickJS reaches its next interrupt check before the guest code returns.
   */
  markIfOverdue(): boolean {
    if (!this.active) return false;
    if (this.fired) return true;
    return performance.now() > this.checkAt && this.overdue();
  }

  private readClock(wallNow: number): number {
    this.lastRead = this.cpu.now();
    this.lastReadAt = wallNow;
    return this.lastRead;
  }

  /** Reads the CPU clock: marks the slice interrupted if it is past its time, else sets the next check. */
  private overdue(): boolean {
    const used = this.readClock(performance.now()) - this.cpuStart;
    if (used > this.sliceMs) {
      this.fired = true;
      return true;
    }
    this.checkAt = performance.now() + (this.sliceMs - used);
    return false;
  }

  /**
   * Runs `body` (which disposes its own handles) and then the promise jobs, all under one
   * deadline. Host exceptions (a trap, a Node stack overflow) propagate: the caller treats
   * them as a crash.
   */
  run<T>(body: () => T): SliceOutcome<T> {
    if (this.active) throw new Error("internal: a guest slice is already running");
    const wallStart = performance.now();
    // Reading the clock costs ~1.5 µs (a syscall), a real share of a host call's ~40 µs. A
    // reading from the last CLOCK_REUSE_MS stands in for the start: a slice is then judged at
    // most that much longer than it was, never shorter.
    const start = wallStart - this.lastReadAt <= CLOCK_REUSE_MS ? this.lastRead : this.readClock(wallStart);
    this.active = true;
    this.fired = false;
    this.cpuStart = start;
    this.checkAt = wallStart + this.sliceMs;
    this.placement?.board.begin(this.placement.slot, this.sliceMs, start);
    const escaped: string[] = [];
    let value: T;
    let ms = 0;
    try {
      value = body();
      while (!this.fired && this.runtime.hasPendingJob()) {
        const thrown = runPendingJobs(this.runtime, this.context);
        if (thrown) escaped.push(this.describe(thrown));
      }
    } finally {
      this.placement?.board.end();
      this.active = false;
      // CPU time never runs ahead of wall time, so a slice that took under CLOCK_REUSE_MS of wall
      // time is charged that (at most as much more than it used) without reading the clock: the
      // read is a syscall, 1–5 µs on a busy machine, and a host call makes two short slices.
      const wallEnd = performance.now();
      ms = wallEnd - wallStart <= CLOCK_REUSE_MS ? wallEnd - wallStart : Math.max(0, this.readClock(wallEnd) - start);
      this.stats.cpuMs += ms;
      if (ms > this.stats.longestSliceMs) this.stats.longestSliceMs = ms;
      if (this.fired) this.stats.interruptedSlices++;
    }
    return { value, interrupted: this.fired, escaped, cpuMs: ms };
  }

  /** An escaped error's message, read without running guest code, and the handle freed. */
  describe(handle: QuickJSHandle): string {
    try {
      if (this.context.typeof(handle) === "string") return this.context.getString(handle).slice(0, 1000);
      if (this.context.typeof(handle) !== "object") return String(this.context.dump(handle)).slice(0, 1000);
      this.stopNow = true; // a getter on the error object would be interrupted at once
      try {
        const message = this.context.getProp(handle, "message");
        const text = this.context.typeof(message) === "string" ? this.context.getString(message) : "unknown error";
        message.dispose();
        return text.slice(0, 1000);
      } finally {
        this.stopNow = false;
      }
    } catch {
      return "unknown error";
    } finally {
      handle.dispose();
    }
  }
}
