/**
 * One extension's life in the runtime: its registration, its sandbox (one generation per load),
 * its status, its crash restarts, and every call into it.
 *
 * A generation ends when the sandbox crashes, or the extension is reloaded or unloaded; calls
 * still running in it then fail at once (Crashed or ExtensionNotLoaded), and forwarded ops
 * from its leftovers are refused.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { z } from "zod";
import type {
  CallContext,
  ForwardedOp,
  Invocation,
  LoadResult,
  SandboxCrash,
  SandboxEvent,
  SandboxHandle,
} from "@svc/sandbox";
import { checkBundleSize } from "@svc/sandbox";
import { BlipSide } from "./blips.js";
import type { Clock } from "./clock.js";
import type { RuntimeConfig } from "./config.js";
import type { Connection } from "./connection.js";
import { forward } from "./forwarder.js";
import {
  ErrorCodes,
  ExtensionTools,
  Log,
  ExtensionDenied,
  denialLine,
  denialRecord,
  ResponseError,
  type LoadManifestSchema,
  type LogLevel,
} from "./protocol/index.js";
import { ReplyBook } from "./replies.js";
import { RestartWindow } from "./restart-policy.js";
import type { SandboxFactory } from "./sandbox-factory.js";
import { SeqStore } from "./seq-store.js";
import { StatusReporter } from "./status.js";
import { BUNDLE_FILE } from "./support-folder.js";
import { describeGuestError, readSourceMap } from "./stack-map.js";
import { decodeTools, type DecodedTools } from "./tool-specs.js";

export interface SlotDeps {
  connection: Connection;
  config: RuntimeConfig;
  clock: Clock;
  sandboxes: SandboxFactory;
  /** Where every extension's data folder lives: `<dataRoot>/<id>/`. */
  dataRoot: string;
  /** stderr. */
  note(message: string): void;
}

export interface Registration {
  path: string;
  manifest: z.output<typeof LoadManifestSchema>;
  preferences: Record<string, unknown>;
  /** Origins the person granted (`extension.load`'s `grantedOrigins`); the fence admits them. */
  grantedOrigins: string[];
}

/** One loaded generation of the extension's code. */
export interface Live {
  readonly generation: number;
  readonly handle: SandboxHandle;
  readonly loaded: LoadResult;
  readonly tools: DecodedTools;
  /** Rejects when this generation ends, so calls in it stop waiting. */
  readonly lost: Promise<never>;
  active: number;
}

export interface CallTiming {
  abortMs: number;
  giveUpMs: number;
  /** The code for an error the guest threw: ExtensionFailed or ToolFailed. */
  failCode: number;
  /** For messages: `update()`, `tool "jwt"` … */
  what: string;
  /** Aborting it aborts the guest's signal at once (`tool.cancel`); the call then fails with `cancelled`. */
  cancel?: AbortSignal;
}

/**
 * The `code` of a SandboxError (guest, interrupted, crashed, disposed, aborted); errors cross threads as records, so no
 * instanceof.
 */
function sandboxErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A reload this soon after the extension's own `ctx.setPreference` is its own doing. */
const SELF_RELOAD_MS = 60_000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ExtensionSlot {
  readonly dataDir: string;
  readonly seqs: SeqStore;
  readonly blips: BlipSide;
  readonly replies = new ReplyBook();
  readonly restarts: RestartWindow;
  private readonly status: StatusReporter;
  private registration: Registration;
  private live: Live | null = null;
  private loseLive: ((error: ResponseError) => void) | null = null;
  private loading: Promise<Live> | null = null;
  private generation = 0;
  private crashReason: string | null = null;
  private loadFailure: string | null = null;
  private readonly inflight = new Set<Promise<unknown>>();
  /** When the guest last called `ctx.setPreference` (clock ms). */
  private preferenceSetAt = -Infinity;

  constructor(
    readonly id: string,
    registration: Registration,
    private readonly deps: SlotDeps,
  ) {
    this.registration = registration;
    this.dataDir = join(deps.dataRoot, id);
    this.seqs = SeqStore.open(this.dataDir, deps.note);
    this.restarts = new RestartWindow(deps.clock);
    this.status = new StatusReporter(id, deps.connection);
    this.blips = new BlipSide({
      extensionId: id,
      connection: deps.connection,
      seqs: this.seqs,
      now: () => deps.clock.now(),
      log: (l, m) => this.log(l, m),
      signIn: () => Object.keys((this.registration.manifest as { oauth?: object }).oauth ?? {}).length > 0,
    });
  }

  /**
   * `extension.load`: new code (or new preferences) replaces the old generation; crash history
   * starts afresh, unless the extension caused this reload itself (`ctx.setPreference`, which the
   * host answers with a reload): else an extension could crash, set a preference and crash
   * again without end.
   */
  async load(registration: Registration, lazy: boolean): Promise<void> {
    this.retire(new ResponseError(ErrorCodes.ExtensionNotLoaded, `${this.id} was reloaded while this request ran`));
    this.registration = registration;
    const selfCaused = this.deps.clock.now() - this.preferenceSetAt < SELF_RELOAD_MS;
    this.preferenceSetAt = -Infinity;
    // Its own reload of a crashed extension is one more restart, through the window.
    if (!selfCaused) {
      this.restarts.reset();
      this.crashReason = null;
    }
    this.loadFailure = null;
    if (!lazy) await this.ensureLive();
  }

  /** `extension.unload`: ends the generation and flushes seq.json. */
  async unload(): Promise<void> {
    this.retire(new ResponseError(ErrorCodes.UnknownExtension, `${this.id} was unloaded while this request ran`));
    await this.seqs.flush();
  }

  /** The loaded generation, loading (or restarting within the crash window) when needed. */
  ensureLive(): Promise<Live> {
    if (this.live) return Promise.resolve(this.live);
    if (this.loading) return this.loading;
    if (this.loadFailure !== null) {
      return Promise.reject(new ResponseError(ErrorCodes.ExtensionNotLoaded, this.loadFailure));
    }
    if (this.crashReason !== null && !this.restarts.tryRestart()) {
      return Promise.reject(
        new ResponseError(
          ErrorCodes.Crashed,
          `${this.id} crashed (${this.crashReason}) and was restarted 3 times in the last 5 minutes: it stays stopped until that window passes or it is loaded again`,
        ),
      );
    }
    return this.start();
  }

  /** The per-call part of ctx. */
  callContext(trigger?: CallContext["trigger"]): CallContext {
    return trigger
      ? { trigger, preferences: this.registration.preferences }
      : { preferences: this.registration.preferences };
  }

  /**
   * Calls into the guest: status `running` while any call is under way, `idle` after. The guest's
   * signal is aborted at `abortMs`; the runtime stops waiting at `giveUpMs`. Resolves only after
   * every blip the call emitted has been sent.
   */
  async call(live: Live, invocation: Invocation, timing: CallTiming): Promise<unknown> {
    live.active++;
    if (live.active === 1) void this.status.send("running");
    const started = live.handle.start(invocation);
    let timedOut = false;
    const abortTimer = setTimeout(() => {
      timedOut = true;
      started.abort(`${timing.what} did not finish within ${timing.abortMs} ms`);
    }, timing.abortMs);
    const onCancel = () => started.abort(`${timing.what} was cancelled`);
    timing.cancel?.addEventListener("abort", onCancel, { once: true });
    // Cancelled before the call began (the extension was still loading): abort at once.
    if (timing.cancel?.aborted) onCancel();
    let giveUpTimer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<never>((_, reject) => {
      giveUpTimer = setTimeout(
        () =>
          reject(
            new ResponseError(
              ErrorCodes.Timeout,
              `${this.id}: ${timing.what} did not finish within ${timing.giveUpMs} ms`,
            ),
          ),
        timing.giveUpMs,
      );
    });
    try {
      return await Promise.race([started.result, giveUp, live.lost]);
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      const code = sandboxErrorCode(error);
      if (timing.cancel?.aborted) throw new ResponseError(timing.failCode, `${timing.what} was cancelled`);
      if (code === "aborted" || timedOut) {
        throw new ResponseError(
          ErrorCodes.Timeout,
          `${this.id}: ${timing.what} did not finish within ${timing.abortMs} ms`,
        );
      }
      if (code === "crashed" || code === "disposed") {
        // The crash report may land just after the call it broke rejects: let it, then answer as it says.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.live !== live) await live.lost;
        throw new ResponseError(
          code === "crashed" ? ErrorCodes.Crashed : ErrorCodes.ExtensionNotLoaded,
          `${this.id}: ${messageOf(error)}`,
        );
      }
      // The author's code threw: its log says what and where, in their source when svckit left a map.
      const stack = (error as { guestStack?: unknown }).guestStack;
      this.log(
        "error",
        describeGuestError(
          timing.what,
          messageOf(error),
          typeof stack === "string" ? stack : undefined,
          readSourceMap(this.registration.path),
        ),
      );
      throw new ResponseError(timing.failCode, messageOf(error));
    } finally {
      timing.cancel?.removeEventListener("abort", onCancel);
      clearTimeout(abortTimer);
      clearTimeout(giveUpTimer);
      await this.settleForwards();
      live.active--;
      if (live.active === 0 && this.live === live) await this.status.send("idle", live.handle);
    }
  }

  log(level: LogLevel, message: string): void {
    this.deps.connection.sendNotification(Log, { extensionId: this.id, level, message });
  }

  private async settleForwards(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private start(): Promise<Live> {
    const generation = ++this.generation;
    const loading = this.startGeneration(generation).finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  private async startGeneration(generation: number): Promise<Live> {
    const { path, manifest } = this.registration;
    const file = join(path, BUNDLE_FILE);
    let handle: SandboxHandle | undefined;
    try {
      let code: string;
      try {
        // Refused before reading: a huge file never costs its size in memory.
        checkBundleSize((await stat(file)).size);
        code = await readFile(file, "utf8");
      } catch (error) {
        if (error instanceof RangeError) throw error;
        throw new Error(
          `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? messageOf(error)}): build the extension with svckit build`,
        );
      }
      const { config } = this.deps;
      handle = await this.deps.sandboxes.create(
        {
          id: this.id,
          code,
          filename: BUNDLE_FILE,
          permissions: {
            network: manifest.permissions.network,
            files: manifest.permissions.files,
            exec: manifest.permissions.exec,
            runAnyCommand: manifest.permissions.runAnyCommand,
            grantedOrigins: this.registration.grantedOrigins,
          },
          dataDir: this.dataDir,
          // The support folder holds `Data/` (initialize's dataDir): refused to reads but for dataDir.
          supportDir: dirname(this.deps.dataRoot),
          limits: { memoryBytes: config.memoryMb * 1024 * 1024, sliceMs: config.sliceMs },
        },
        {
          forwarded: { forward: (op, args) => this.forwardFrom(generation, op, args) },
          onEvent: (event) => this.reportSandboxEvent(event),
          onCrash: (crash) => this.handleCrash(generation, crash),
        },
      );
      const loaded = await handle.load();
      if (generation !== this.generation)
        throw new ResponseError(ErrorCodes.ExtensionNotLoaded, `${this.id} was reloaded while it loaded`);
      const tools = decodeTools(loaded.tools, (message) => this.log("error", message));
      let lose!: (error: ResponseError) => void;
      const lost = new Promise<never>((_, reject) => (lose = reject));
      lost.catch(() => {});
      const live: Live = { generation, handle, loaded, tools, lost, active: 0 };
      this.live = live;
      this.loseLive = lose;
      this.crashReason = null;
      this.deps.connection.sendNotification(ExtensionTools, { extensionId: this.id, tools: tools.canonical });
      await this.status.send("loaded", handle);
      return live;
    } catch (error) {
      void handle?.dispose().catch(() => {});
      if (error instanceof ResponseError) throw error;
      const message = `${this.id} could not be loaded: ${messageOf(error)}`;
      if (generation === this.generation) {
        // A sandbox that died while loading goes through the restart window on the next request;
        // anything else (no bundle, a throw at load) waits for new code.
        if (sandboxErrorCode(error) === "crashed") this.crashReason = messageOf(error);
        else this.loadFailure = message;
      }
      this.log("error", message);
      await this.status.send("crashed", undefined, message);
      throw new ResponseError(ErrorCodes.ExtensionNotLoaded, message);
    }
  }

  /** Ends the current generation (if any): its calls fail with `error`, its sandbox is disposed. */
  private retire(error: ResponseError): void {
    this.generation++;
    this.loading = null;
    const live = this.live;
    this.live = null;
    if (!live) return;
    this.loseLive?.(error);
    this.loseLive = null;
    void live.handle.dispose().catch((e) => this.deps.note(`${this.id}: dispose failed: ${messageOf(e)}`));
  }

  private handleCrash(generation: number, crash: SandboxCrash): void {
    if (!this.live || this.live.generation !== generation) return;
    this.retire(new ResponseError(ErrorCodes.Crashed, `${this.id} crashed: ${crash.reason}`));
    this.crashReason = crash.reason;
    this.log("error", `crashed: ${crash.reason}`);
    void this.status.send("crashed", undefined, crash.reason);
    // A neighbour's crash is not this extension's fault: reload it without counting.
    const restart = !crash.guilty || this.restarts.tryRestart();
    if (!restart) {
      this.log("warn", "not restarted: it already restarted 3 times in the last 5 minutes");
      return;
    }
    this.start().catch((error) => this.deps.note(`${this.id}: restart failed: ${messageOf(error)}`));
  }

  private forwardFrom(generation: number, op: ForwardedOp, args: unknown): Promise<unknown> {
    if (generation !== this.generation) return Promise.reject(new Error(`${this.id} is no longer loaded`));
    if (op === "preferences.set") this.preferenceSetAt = this.deps.clock.now();
    const pending = forward(
      {
        extensionId: this.id,
        connection: this.deps.connection,
        blips: this.blips,
        replies: this.replies,
        hostCallTimeoutMs: this.deps.config.hostCallTimeoutMs,
      },
      op,
      args,
    );
    if (op === "emit" || op === "end") {
      this.inflight.add(pending);
      const forget = () => this.inflight.delete(pending);
      pending.then(forget, forget);
    }
    return pending;
  }

  private reportSandboxEvent(event: SandboxEvent): void {
    switch (event.type) {
      case "denied": {
        // As data for Settings' "Recently refused", and as a line for the terminal and `svckit dev`.
        const denial = denialRecord(event.denial);
        this.deps.connection.sendNotification(ExtensionDenied, { extensionId: this.id, denial });
        this.log("warn", denialLine(denial));
        return;
      }
      case "interrupted":
        this.log("warn", `interrupted: guest code ran longer than ${event.sliceMs} ms without yielding`);
        return;
      case "memory-limit":
        this.log("warn", `hit the memory limit (${event.heapUsed} bytes in use)`);
        return;
      case "throttled":
        this.log(
          "warn",
          `used more than ${event.budgetMs} ms of CPU in ${event.windowMs / 1000} s: paused for ${event.waitMs} ms so its neighbours can run`,
        );
        return;
    }
  }
}
