/**
 * A sandbox thread's public notice board, in a SharedArrayBuffer the owner's watchdog reads: which
 * sandbox is running guest code right now, since when (wall clock and the thread's CPU clock),
 * with what slice limit, and the thread's kernel id (so the watchdog can read that thread's CPU
 * clock itself, thread-cpu.ts). The sandbox thread writes it around every guest slice; the watchdog
 * sleeps on the busy word (`Atomics.waitAsync`), so an idle thread costs the owner nothing. A slice
 * wakes the owner only when the watchdog sleeps (the waiting word): a host call makes two slices,
 * and a notify per slice cost a call into V8's futex table each.
 */

const BUSY = 0; // Int32 index: 1 while a guest slice runs
const SLOT = 1; // Int32 index: the sandbox's slot on its sandbox thread
const TID = 2; // Int32 index: the sandbox thread's kernel thread id (0: unknown)
const WAITING = 3; // Int32 index: 1 while the watchdog sleeps on BUSY
const START = 0; // Float64 index (byte 16): slice start, ms since the epoch (timeOrigin + now)
const LIMIT = 1; // Float64 index (byte 24): that sandbox's sliceMs
const START_CPU = 2; // Float64 index (byte 32): the thread's CPU clock at the slice's start, ms

/** Bytes of the SharedArrayBuffer one board needs. */
export const SLICE_BOARD_BYTES = 40;

export interface SliceNotice {
  busy: boolean;
  slot: number;
  startedAt: number;
  /** The sandbox thread's CPU clock (thread-cpu.ts) when the slice began. */
  startedAtCpu: number;
  sliceMs: number;
}

/**
 * Both faces of the board: the sandbox thread calls `begin`/`end`, the watchdog `read`/`waitWhileIdle`.
 *
 * @example const board = new SliceBoard(new SharedArrayBuffer(SLICE_BOARD_BYTES));
 */
export class SliceBoard {
  private readonly words: Int32Array;
  private readonly times: Float64Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer, 0, 4);
    this.times = new Float64Array(buffer, 16, 3);
  }

  /** The sandbox thread says who it is, once, before any slice. */
  set threadId(tid: number) {
    Atomics.store(this.words, TID, tid);
  }

  get threadId(): number {
    return Atomics.load(this.words, TID);
  }

  /**
   * Called on the sandbox thread before a slice of another sandbox than the last one begins: the
   * thread posts what the last one sent, so a slice stuck in a native call (the watchdog then
   * ends the thread) cannot take a neighbour's already-answered emits down with it.
   */
  onSwitch: (() => void) | undefined;

  begin(slot: number, sliceMs: number, cpuNow: number): void {
    if (this.onSwitch && Atomics.load(this.words, SLOT) !== slot) this.onSwitch();
    this.times[START] = wallNow();
    this.times[START_CPU] = cpuNow;
    this.times[LIMIT] = sliceMs;
    Atomics.store(this.words, SLOT, slot);
    Atomics.store(this.words, BUSY, 1);
    // Sequentially consistent: either this load sees the watchdog's WAITING, or its wait sees BUSY.
    if (Atomics.load(this.words, WAITING) === 1) Atomics.notify(this.words, BUSY);
  }

  end(): void {
    Atomics.store(this.words, BUSY, 0);
  }

  read(): SliceNotice {
    const busy = Atomics.load(this.words, BUSY) === 1;
    return {
      busy,
      slot: Atomics.load(this.words, SLOT),
      startedAt: this.times[START],
      startedAtCpu: this.times[START_CPU],
      sliceMs: this.times[LIMIT],
    };
  }

  /** Wakes a pending `waitWhileIdle` (used when the watchdog stops). */
  wake(): void {
    Atomics.notify(this.words, BUSY);
  }

  /** Resolves when a slice begins (at once if one is running). Keeps no timer alive meanwhile. */
  waitWhileIdle(): Promise<void> {
    Atomics.store(this.words, WAITING, 1);
    const wait = Atomics.waitAsync(this.words, BUSY, 0);
    const awake = () => void Atomics.store(this.words, WAITING, 0);
    if (!wait.async) {
      awake();
      return Promise.resolve();
    }
    return wait.value.then(awake);
  }
}

/** This thread's time origin (a getter into Node each time it is read). */
const TIME_ORIGIN = performance.timeOrigin;

/** Milliseconds since the epoch with sub-ms precision, comparable across threads. */
export function wallNow(): number {
  return TIME_ORIGIN + performance.now();
}
