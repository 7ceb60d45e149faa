/**
 * SandboxPool: the public way to run sandboxes. It owns a few sandbox threads (worker_threads),
 * places each new sandbox on the least loaded one, and keeps the protocol thread free: guest
 * code never runs on the thread that creates the pool.
 */
import { CodeCache } from "../engine/compiled-code/code-cache.js";
import { SandboxError } from "../errors.js";
import { untilAborted } from "../started-call.js";
import { SandboxThreadClient, refusedRequest } from "./sandbox-thread-client.js";
import { WATCHDOG_MARGIN_MS, checkBundleSize } from "../limits.js";
import type { InvokeReply, LoadReply, SandboxThreadStats } from "./thread-messages.js";
import { checkLocale } from "../bridge/intl-ops.js";
import { guestTimeZone } from "../engine/time-zone.js";
import type {
  Invocation,
  LoadResult,
  SandboxDiagnostics,
  SandboxUsage,
  StartedCall,
  SandboxHandle,
  SandboxListeners,
  SandboxOptions,
} from "../types.js";
import { quickjsWasmModule } from "../engine/wasm.js";

export interface SandboxPoolOptions {
  /** Sandbox threads at most. Default 2: a stuck native call takes down only its thread's sandboxes. */
  threads?: number;
  /**
   * Sandboxes a thread takes before the pool starts another (up to `threads`). Default 1: every
   * sandbox gets a thread of its own while there are fewer than `threads`. svc-runtime passes 16:
   * a sandbox thread costs ~15–35 MB, so the second starts only once the first is this full.
   */
  sandboxesPerThread?: number;
  /** How far past its `sliceMs` a slice may run before the watchdog ends its thread. Default 250 ms. */
  watchdogMarginMs?: number;
  /**
   * The guests' local time zone, an IANA name (`"Europe/London"`): what `new Date().getHours()`
   * and friends use in every sandbox of this pool. Default: the process's own zone.
   */
  timeZone?: string;
  /**
   * The guests' default locale, a BCP 47 tag (`"en-GB"`): what `Intl` and the locale methods
   * (`toLocaleString`, `localeCompare` …) use when given none. Default: the process's.
   */
  locale?: string;
  /**
   * Keep one spare instance (interpreter + prelude, no guest code run) ready on each sandbox thread,
   * made when the thread is idle, so `create` only binds it. Default true. It is used by one
   * sandbox only, and only when that sandbox has the default memory limit.
   */
  spare?: boolean;
  /**
   * Where compiled bundles are kept between runs (created when needed), so an extension
   * started again loads without QuickJS parsing its bundle. Without it they are kept in memory
   * for the pool's life only. The folder must be the host's own, never an extension's.
   */
  compiledCodeDir?: string;
}

/**
 * @example
 * const pool = new SandboxPool();
 * const sandbox = await pool.create(options, { host, onCrash: (c) => restart(c) });
 * await sandbox.load();
 * const result = await sandbox.invoke({ kind: "update", ctx: { preferences: {} } });
 * await pool.dispose();
 */
export class SandboxPool {
  private readonly threads: SandboxThreadClient[] = [];
  private readonly maxThreads: number;
  private readonly perThread: number;
  private readonly marginMs: number;
  private threadSettings: { timeZone?: string; locale?: string; spare: boolean };
  private codeCache: CodeCache;
  /**
   * Extensions the watchdog had to stop (a stuck native call ends the whole thread, crashing its
   * neighbours once): from then on each gets a thread of its own, so it can only hurt itself.
   */
  private readonly offenders = new Set<string>();
  private nextSandboxId = 1;
  private disposed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.maxThreads = Math.max(1, Math.floor(options.threads ?? 2));
    this.perThread = Math.max(1, Math.floor(options.sandboxesPerThread ?? 1));
    this.marginMs = options.watchdogMarginMs ?? WATCHDOG_MARGIN_MS;
    this.threadSettings = {
      ...(options.timeZone === undefined ? {} : { timeZone: guestTimeZone(options.timeZone) }),
      ...(options.locale === undefined ? {} : { locale: checkLocale(options.locale) }),
      spare: options.spare ?? true,
    };
    this.codeCache = new CodeCache({ dir: options.compiledCodeDir });
  }

  /**
   * Changes the guests' time zone and locale, and the code cache's folder, for the sandboxes
   * created from now on; threads already started take them before their next request (a spare
   * made for another zone is made again). Lets a pool start, and warm, before these are known
   * (the runtime's pool starts with the process, `initialize` brings them). Throws RangeError on
   * an unknown zone or locale, changing nothing.
   *
   * @example pool.configure({ timeZone: "Europe/Oslo", locale: "nb-NO", compiledCodeDir });
   */
  configure(options: Pick<SandboxPoolOptions, "timeZone" | "locale" | "compiledCodeDir">): void {
    const settings = {
      ...this.threadSettings,
      ...(options.timeZone === undefined ? {} : { timeZone: guestTimeZone(options.timeZone) }),
      ...(options.locale === undefined ? {} : { locale: checkLocale(options.locale) }),
    };
    if (options.compiledCodeDir !== undefined) this.codeCache = new CodeCache({ dir: options.compiledCodeDir });
    if (settings.timeZone === this.threadSettings.timeZone && settings.locale === this.threadSettings.locale) return;
    this.threadSettings = settings;
    const { timeZone, locale } = settings;
    for (const thread of this.threads)
      if (thread.isAlive) thread.request({ type: "settings", timeZone, locale }).catch(() => {}); // gone: nothing to tell
  }

  async create(options: SandboxOptions, listeners: SandboxListeners): Promise<SandboxHandle> {
    if (this.disposed) throw new SandboxError("disposed", "the sandbox pool was disposed");
    guestCheck(() => checkBundleSize(options.code.length));
    const key = CodeCache.key(options.code, options.filename ?? "dist/index.js");
    const module = await quickjsWasmModule();
    if (this.disposed) throw new SandboxError("disposed", "the sandbox pool was disposed");
    // Pick and admit with no await between: in a burst (the app's launch), each create sees the
    // ones before it, so they spread over the threads and never start more than `threads`.
    const thread = this.offenders.has(options.id) ? this.spawn(module, true) : this.pickThread(module);
    const sid = this.nextSandboxId++;
    thread.admit(sid, { id: options.id, listeners });
    const compiledCode = this.codeCache.locate(options.id, key);
    try {
      await thread.request({ type: "create", sid, options, compiledCode });
    } catch (error) {
      thread.release(sid);
      throw error;
    }
    const compileForCache = () => {
      const filename = options.filename ?? "dist/index.js";
      const file = this.codeCache.fileFor(options.id, key);
      thread.request({ type: "compile", id: options.id, code: options.code, filename, file }).then(
        (bytes) => bytes instanceof Uint8Array && this.codeCache.keep(key, bytes),
        () => {}, // the thread ended first: compiled next time
      );
    };
    return new RemoteSandbox(options.id, sid, thread, compileForCache);
  }

  /**
   * Starts the sandbox threads the first sandboxes will use (every thread, or only the first when
   * `sandboxesPerThread` > 1) and resolves once each has warmed up, so the first sandboxes do not
   * wait for a thread to start (optional: threads otherwise start on first use).
   *
   * @example const pool = new SandboxPool(); await pool.warm();
   */
  async warm(): Promise<void> {
    await this.startThreads();
    await Promise.all(this.threads.map((thread) => thread.ready));
  }

  /**
   * Starts the threads `warm` waits for and resolves once they are spawned, before they are
   * ready: a caller with work of its own for this thread (svc-runtime loading its protocol side)
   * lets the QuickJS module compile and the threads spawn first, then does it while they start.
   *
   * @example await pool.startThreads(); const { serve } = await import("./serve.js");
   */
  async startThreads(): Promise<void> {
    if (this.disposed) return;
    const module = await quickjsWasmModule();
    const wanted = this.perThread > 1 ? 1 : this.maxThreads;
    while (this.threads.filter((thread) => thread.isAlive && !thread.dedicated).length < wanted) this.spawn(module);
  }

  /**
   * Figures per live sandbox thread (sandboxes, heap, memory, active handles), for diagnostics and
   * leak tests; `collectGarbage` runs a full collection on each thread first.
   */
  stats(options: { collectGarbage?: boolean } = {}): Promise<SandboxThreadStats[]> {
    return Promise.all(this.threads.map((thread) => thread.stats(options.collectGarbage)));
  }

  /** Ends every sandbox thread and with them every sandbox. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  /**
   * The least loaded shared thread (sandboxes on it, being created included) while it has room
   * (`sandboxesPerThread`), else a new one while under the limit.
   */
  private pickThread(module: WebAssembly.Module): SandboxThreadClient {
    const live = this.threads.filter((thread) => thread.isAlive && !thread.dedicated);
    const least = live.sort((a, b) => a.load - b.load)[0];
    if (least && (least.load < this.perThread || live.length >= this.maxThreads)) return least;
    return this.spawn(module);
  }

  private spawn(module: WebAssembly.Module, dedicated = false): SandboxThreadClient {
    const hooks = {
      onGone: (gone: SandboxThreadClient) => {
        const at = this.threads.indexOf(gone);
        if (at >= 0) this.threads.splice(at, 1);
      },
      onOffender: (id: string) => this.offenders.add(id),
    };
    const thread = new SandboxThreadClient(module, this.marginMs, hooks, this.threadSettings, dedicated);
    this.threads.push(thread);
    return thread;
  }
}

/** A sandbox living on a sandbox thread, seen from the owner thread. */
class RemoteSandbox implements SandboxHandle {
  private disposed = false;
  private usageAfterCall: SandboxUsage | undefined;

  constructor(
    readonly id: string,
    private readonly sid: number,
    private readonly thread: SandboxThreadClient,
    /** Has the bundle compiled for the code cache, in the background. */
    private readonly compileForCache: () => void,
  ) {}

  async load(): Promise<LoadResult> {
    const { loaded, parsedSource } = (await this.call("load")) as LoadReply;
    if (parsedSource) this.compileForCache();
    return loaded;
  }

  invoke(invocation: Invocation, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    if (options.signal?.aborted) return Promise.reject(new SandboxError("aborted", "the call was aborted"));
    return untilAborted(this.start(invocation), options.signal);
  }

  start(invocation: Invocation): StartedCall {
    const { settled, cancel } = this.disposed
      ? refusedRequest(new SandboxError("disposed", "the sandbox was disposed"))
      : !this.thread.hosts(this.sid)
        ? refusedRequest(crashedError())
        : this.thread.begin({ type: "invoke", sid: this.sid, invocation });
    const result = settled.then(
      (answer) => {
        const { value, usage } = answer as InvokeReply;
        this.usageAfterCall = usage;
        return value;
      },
      (error: unknown) => {
        this.usageAfterCall = undefined;
        throw error;
      },
    );
    return { result, abort: cancel };
  }

  get lastCallUsage(): SandboxUsage | undefined {
    return this.usageAfterCall;
  }

  diagnostics(): Promise<SandboxDiagnostics> {
    return this.call("diagnostics") as Promise<SandboxDiagnostics>;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.thread.release(this.sid);
    if (this.thread.isAlive)
      await this.thread.request({ type: "call", sid: this.sid, method: "dispose" }).catch(() => {});
  }

  private call(method: "load" | "diagnostics"): Promise<unknown> {
    if (this.disposed) return Promise.reject(new SandboxError("disposed", "the sandbox was disposed"));
    if (!this.thread.hosts(this.sid)) return Promise.reject(crashedError());
    return this.thread.request({ type: "call", sid: this.sid, method });
  }
}

/** Runs a check whose RangeError is the extension's fault: a `guest` SandboxError with its words. */
function guestCheck(check: () => void): void {
  try {
    check();
  } catch (error) {
    throw new SandboxError("guest", (error as Error).message);
  }
}

function crashedError(): SandboxError {
  return new SandboxError("crashed", "the sandbox crashed; create it again");
}
