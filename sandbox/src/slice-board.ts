/**
 * A host thread's public notice board, in a SharedArrayBuffer the owner's watchdog reads: which
 * sandbox is running guest code right now, since when, and with what slice limit. The host
 * thread writes it around every guest slice; the watchdog sleeps on the busy word
 * (`Atomics.waitAsync`), so an idle thread costs the owner nothing.
 */

const BUSY = 0; // Int32 index: 1 while a guest slice runs
const SLOT = 1; // Int32 index: the sandbox's slot on its host thread
const START = 0; // Float64 index (byte 8): slice start, ms since the epoch (timeOrigin + now)
const LIMIT = 1; // Float64 index (byte 16): that sandbox's sliceMs

/** Bytes of the SharedArrayBuffer one board needs. */
export const SLICE_BOARD_BYTES = 24;

export interface SliceNotice {
  busy: boolean;
  slot: number;
  startedAt: number;
  sliceMs: number;
}

/**
 * Both faces of the board: the host thread calls `begin`/`end`, the watchdog `read`/`waitWhileIdle`.
 *
 * @example const board = new SliceBoard(new SharedArrayBuffer(SLICE_BOARD_BYTES));
 */
export class SliceBoard {
  private readonly words: Int32Array;
  private readonly times: Float64Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer, 0, 2);
    this.times = new Float64Array(buffer, 8, 2);
  }

  begin(slot: number, sliceMs: number): void {
    this.times[START] = wallNow();
    this.times[LIMIT] = sliceMs;
    Atomics.store(this.words, SLOT, slot);
    Atomics.store(this.words, BUSY, 1);
    Atomics.notify(this.words, BUSY);
  }

  end(): void {
    Atomics.store(this.words, BUSY, 0);
  }

  read(): SliceNotice {
    const busy = Atomics.load(this.words, BUSY) === 1;
    return { busy, slot: Atomics.load(this.words, SLOT), startedAt: this.times[START], sliceMs: this.times[LIMIT] };
  }

  /** Wakes a pending `waitWhileIdle` (used when the watchdog stops). */
  wake(): void {
    Atomics.notify(this.words, BUSY);
  }

  /** Resolves when a slice begins (at once if one is running). Keeps no timer alive meanwhile. */
  waitWhileIdle(): Promise<void> {
    const wait = Atomics.waitAsync(this.words, BUSY, 0);
    return wait.async ? wait.value.then(() => undefined) : Promise.resolve();
  }
}

/** Milliseconds since the epoch with sub-ms precision, comparable across threads. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
