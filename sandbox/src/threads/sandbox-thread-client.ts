/**
 * The owner's side of one sandbox thread: starts the Worker, sends requests and matches replies,
 * relays forwarded host calls to each sandbox's listeners, and, with its watchdog, ends the
 * thread when a guest slice is stuck in a native call, crashing every sandbox on it.
 */
import { Worker } from "node:worker_threads";
import { SandboxError } from "../errors.js";
import { errorRecord } from "../engine/guest-calls.js";
import { SANDBOX_THREAD_STACK_MB, SANDBOX_THREAD_YOUNG_MB } from "../limits.js";
import { SLICE_BOARD_BYTES, SliceBoard } from "../engine/slice-board.js";
import type { FromSandboxThread, SandboxThreadData, SandboxThreadStats, ToSandboxThread } from "./thread-messages.js";
import type { SandboxListeners } from "../types.js";
import { watchSandboxThread, type Watchdog } from "./watchdog.js";
import { killTagged, newTagPrefix } from "../capabilities/process-tags.js";
import { Outbox, unpack, type Crossing } from "./outbox.js";
import { SANDBOX_THREAD_FILE } from "./thread-file.js";

/** Longest a sandbox thread gets to dispose its sandboxes when the pool ends. */
const CLOSE_GRACE_MS = 1000;

/**
 * The process registry lives here, in the owner, not in the sandbox threads: every program a host
 * thread's sandboxes start carries its thread's tag, so when a thread ends (the watchdog, a
 * crash, the pool's disposal) or this process exits, the owner kills what it left behind.
 */
const OWNER_TAG = newTagPrefix();
let threadsStarted = 0;

type Request = Exclude<ToSandboxThread, { type: "forwarded" } | { type: "abort" }>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

interface Resident {
  id: string;
  listeners: SandboxListeners;
}

/** A request sent to a sandbox thread, and how to call it off. */
export interface BegunRequest {
  settled: Promise<unknown>;
  cancel(reason: string): void;
}

/** A request refused before it was sent: nothing to cancel. */
export function refusedRequest(error: SandboxError): BegunRequest {
  return { settled: Promise.reject(error), cancel: () => {} };
}

export class SandboxThreadClient {
  private readonly worker: Worker;
  private readonly board: SliceBoard;
  private readonly watchdog: Watchdog;
  /** Requests and answers to the thread: a turn's first at once, the rest of the turn as one batch (outbox.ts). */
  private readonly outbox = new Outbox<ToSandboxThread>((crossing) => {
    if (this.alive) this.worker.postMessage(crossing);
  });
  private readonly requests = new Map<
    number,
    { sid: number; resolve(value: unknown): void; reject(error: Error): void }
  >();
  private readonly residents = new Map<number, Resident>();
  private nextRequestId = 1;
  private alive = true;
  /** Tag prefix of the programs this thread's sandboxes start. */
  private readonly execTag = `${OWNER_TAG}.${++threadsStarted}`;
  private markReady!: () => void;
  /** Settles once the thread has warmed up and takes requests (or is gone). */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    module: WebAssembly.Module,
    marginMs: number,
    private readonly hooks: {
      onGone(thread: SandboxThreadClient): void;
      /** The watchdog ended this thread because of the extension `id`. */
      onOffender?(id: string): void;
    },
    settings: Pick<SandboxThreadData, "timeZone" | "locale" | "spare"> = {},
    /** A thread of its own for one sandbox (an offender): ended with that sandbox. */
    readonly dedicated = false,
  ) {
    this.board = new SliceBoard(new SharedArrayBuffer(SLICE_BOARD_BYTES));
    if (threadsStarted === 1) process.once("exit", () => killTagged(OWNER_TAG));
    const data: SandboxThreadData = { module, board: this.board.buffer, execTag: this.execTag, ...settings };
    // 32 MB of native stack (reserved, touched only when used): the 1 MB QuickJS stack limit
    // (limits.ts MAX_STACK_BYTES) must trip before V8's. Each level of the parser's recursion
    // costs far more native stack than QuickJS counts; with Node's 4 MB default, 3,000 nested
    // parentheses overflowed V8's stack (a crash) instead of raising a catchable RangeError.
    this.worker = new Worker(SANDBOX_THREAD_FILE, {
      workerData: data,
      resourceLimits: { stackSizeMb: SANDBOX_THREAD_STACK_MB, maxYoungGenerationSizeMb: SANDBOX_THREAD_YOUNG_MB },
    });
    this.worker.unref();
    this.worker.on("message", (crossing: Crossing<FromSandboxThread>) =>
      unpack(crossing, (message) => this.receive(message)),
    );
    this.worker.on("error", (error) => this.end(`the sandbox thread failed: ${error.message}`));
    this.worker.on("exit", (code) => {
      this.end(`the sandbox thread exited (code ${code})`);
      killTagged(this.execTag);
    });
    this.watchdog = watchSandboxThread(this.board, marginMs, (notice) => this.stuck(notice.slot, notice.sliceMs));
  }

  get isAlive(): boolean {
    return this.alive;
  }

  get load(): number {
    return this.residents.size;
  }

  /** Registers a sandbox's listeners before it is created there. */
  admit(sid: number, resident: Resident): void {
    this.residents.set(sid, resident);
  }

  release(sid: number): void {
    this.residents.delete(sid);
    this.endIfDone();
  }

  /** A dedicated thread whose sandbox is gone has no more use. */
  private endIfDone(): void {
    if (this.dedicated && this.alive && this.residents.size === 0) void this.terminate();
  }

  /** False once the sandbox crashed or was released (or the thread is gone). */
  hosts(sid: number): boolean {
    return this.alive && this.residents.has(sid);
  }

  request(message: DistributiveOmit<Request, "rid">): Promise<unknown> {
    return this.begin(message).settled;
  }

  /** A request that can be called off: `cancel` rejects it as `aborted` and tells the thread to abort it. */
  begin(message: DistributiveOmit<Request, "rid">): BegunRequest {
    if (!this.alive) {
      return refusedRequest(new SandboxError("crashed", "the sandbox's sandbox thread is gone; create it again"));
    }
    const rid = this.nextRequestId++;
    const settled = new Promise((resolve, reject) => {
      this.requests.set(rid, { sid: "sid" in message ? message.sid : -1, resolve, reject });
      this.outbox.send({ ...message, rid } as ToSandboxThread);
    });
    const cancel = (reason: string) => {
      const waiter = this.requests.get(rid);
      if (!waiter) return;
      this.requests.delete(rid);
      waiter.reject(new SandboxError("aborted", reason));
      if (this.alive) this.outbox.send({ type: "abort", rid, reason });
    };
    return { settled, cancel };
  }

  stats(collectGarbage = false): Promise<SandboxThreadStats> {
    return this.request({ type: "stats", collectGarbage }) as Promise<SandboxThreadStats>;
  }

  /**
   * Ends the thread: first lets it dispose its sandboxes (so their exec children are killed and
   * their requests end), waiting at most `graceMs` (a thread stuck in a native call never
   * answers), then terminates it.
   */
  async terminate(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.alive) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([this.request({ type: "close" }).catch(() => {}), late]);
      clearTimeout(timer);
    }
    this.end("the sandbox pool was disposed", false);
    await this.worker.terminate();
  }

  private receive(message: FromSandboxThread): void {
    switch (message.type) {
      case "ready":
        this.markReady();
        return;
      case "result": {
        const waiter = this.requests.get(message.rid);
        this.requests.delete(message.rid);
        if (!waiter) return;
        if (message.ok) waiter.resolve(message.value);
        else waiter.reject(SandboxError.fromRecord(message.error));
        return;
      }
      case "forward":
        return this.forward(message.sid, message.fid, message.op, message.args);
      case "event":
        this.residents.get(message.sid)?.listeners.onEvent?.(message.event);
        return;
      case "crash": {
        const resident = this.residents.get(message.sid);
        this.residents.delete(message.sid);
        resident?.listeners.onCrash?.({ reason: message.reason, guilty: true });
        this.endIfDone();
        return;
      }
    }
  }

  private forward(
    sid: number,
    fid: number,
    op: Extract<FromSandboxThread, { type: "forward" }>["op"],
    args: unknown,
  ): void {
    const resident = this.residents.get(sid);
    const answer = (message: ToSandboxThread): void => {
      if (this.alive) this.outbox.send(message);
    };
    if (!resident)
      return answer({
        type: "forwarded",
        sid,
        fid,
        ok: false,
        error: { name: "Error", message: "the sandbox is gone" },
      });
    Promise.resolve()
      .then(() => resident.listeners.forwarded.forward(op, args))
      .then(
        (value) => answer({ type: "forwarded", sid, fid, ok: true, value: value ?? null }),
        (error: unknown) => answer({ type: "forwarded", sid, fid, ok: false, error: errorRecord(error) }),
      );
  }

  /** The watchdog's verdict: end the thread, blame the sandbox in the slice, crash the rest. */
  private stuck(slot: number, sliceMs: number): void {
    const guilty = this.residents.get(slot);
    const reason = `interrupted: slice over ${sliceMs} ms inside a native call`;
    const neighbourReason = `the sandbox thread was replaced because ${guilty?.id ?? "a neighbour"} got stuck in a native call; create the sandbox again`;
    if (guilty) this.hooks.onOffender?.(guilty.id);
    void this.worker.terminate();
    this.end(neighbourReason, true, slot, reason);
  }

  /** Marks the thread gone, fails its requests and reports each resident's crash once. */
  private end(reason: string, report = true, guiltySlot = -1, guiltyReason = reason): void {
    if (!this.alive) return;
    this.alive = false;
    this.markReady();
    this.watchdog.stop();
    killTagged(this.execTag);
    for (const waiter of this.requests.values()) {
      const why = waiter.sid === guiltySlot ? guiltyReason : reason;
      waiter.reject(new SandboxError("crashed", `the sandbox crashed: ${why}`));
    }
    this.requests.clear();
    const residents = [...this.residents];
    this.residents.clear();
    this.hooks.onGone(this);
    if (!report) return;
    for (const [sid, resident] of residents) {
      const guilty = sid === guiltySlot;
      resident.listeners.onCrash?.({ reason: guilty ? guiltyReason : reason, guilty });
    }
  }
}
