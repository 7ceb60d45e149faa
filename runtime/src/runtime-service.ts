/**
 * The runtime's answers to the host: one handler per host→runtime request of the protocol.
 * Owns the extension slots; knows nothing of stdio (main.ts wires it to the pipe).
 */
import { mkdir } from "node:fs/promises";
import type { Clock, OffsetClock } from "./clock.js";
import type { RuntimeConfig } from "./config.js";
import type { Connection } from "./connection.js";
import { ExtensionSlot, type CallTiming } from "./extension-slot.js";
import {
  ErrorCodes,
  ExtensionAction,
  ExtensionEvent,
  ExtensionLoad,
  ExtensionRun,
  ExtensionUnload,
  Initialize,
  PROTOCOL_VERSION,
  ResponseError,
  Shutdown,
  SUPPORTED_PROTOCOL_VERSIONS,
  TestAdvanceClock,
  ToolCancel,
  ToolDrop,
  ToolRun,
} from "./protocol/index.js";
import type { SandboxFactory } from "./sandbox-factory.js";
import { compiledCodeDir } from "./support-folder.js";
import { CancellableRuns, dropOnTool, runTool } from "./tools.js";

export interface RuntimeServiceOptions {
  connection: Connection;
  config: RuntimeConfig;
  clock: Clock & Pick<OffsetClock, "advance">;
  sandboxes: SandboxFactory;
  runtimeVersion: string;
  /** stderr. */
  note(message: string): void;
  /** Called once everything is disposed and flushed after `shutdown` (or the host going away). */
  onStopped(): void;
}

/** Requests served before `initialize`. */
const WITHOUT_INITIALIZE = new Set([Initialize.method, Shutdown.method]);

/**
 * @example
 * const service = new RuntimeService({ connection, config, clock, sandboxes, runtimeVersion: "0.1.0", note, onStopped });
 * service.register();
 */
export class RuntimeService {
  private dataRoot: string | null = null;
  private stopping: Promise<void> | null = null;
  /** Set the moment `shutdown` is answered, so requests behind it in the same read are refused. */
  private shuttingDown = false;
  private readonly slots = new Map<string, ExtensionSlot>();
  private readonly toolRuns = new CancellableRuns();
  /** Unloads still flushing, so a quick reload never reads a seq.json about to be rewritten. */
  private readonly closing = new Map<string, Promise<void>>();

  constructor(private readonly options: RuntimeServiceOptions) {}

  /** For the connection's `beforeRequest`: refuses requests before `initialize` and after `shutdown`. */
  guard(method: string): void {
    if (this.shuttingDown || this.stopping)
      throw new ResponseError(ErrorCodes.ShuttingDown, "the runtime is shutting down");
    if (this.dataRoot === null && !WITHOUT_INITIALIZE.has(method)) {
      throw new ResponseError(ErrorCodes.NotInitialized, `send initialize before ${method.slice(0, 100)}`);
    }
  }

  register(): void {
    const { connection, config } = this.options;
    connection.onRequest(Initialize, (params) => this.initialize(params));
    connection.onRequest(ExtensionLoad, async (params) => {
      if (params.manifest.id !== undefined && params.manifest.id !== params.id) {
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `invalid params for extension.load: "manifest.id" is "${params.manifest.id}", not "${params.id}"`,
        );
      }
      const registration = {
        path: params.path,
        manifest: params.manifest,
        preferences: params.preferences,
        grantedOrigins: params.grantedOrigins ?? [],
      };
      await this.closing.get(params.id);
      let slot = this.slots.get(params.id);
      if (!slot) {
        slot = new ExtensionSlot(params.id, registration, { ...this.options, dataRoot: this.dataRoot as string });
        this.slots.set(params.id, slot);
      }
      await slot.load(registration, params.lazy === true);
      return {};
    });
    connection.onRequest(ExtensionUnload, async ({ id }) => {
      const slot = this.slot(id);
      this.slots.delete(id);
      const done = slot.unload();
      this.closing.set(id, done);
      try {
        await done;
      } finally {
        if (this.closing.get(id) === done) this.closing.delete(id);
      }
      return {};
    });
    connection.onRequest(ExtensionRun, async ({ id, trigger }) => {
      const slot = this.slot(id);
      const live = await slot.ensureLive();
      if (!live.loaded.hasUpdate) return {};
      const result = await slot.call(live, { kind: "update", ctx: slot.callContext(trigger) }, this.timing("update()"));
      return this.nextRun(slot, result);
    });
    connection.onRequest(ExtensionEvent, async ({ id, event, replyId }) => {
      const slot = this.slot(id);
      const live = await slot.ensureLive();
      if (!live.loaded.hasOnEvent) {
        slot.log("warn", `received a ${event.type} event but exports no onEvent()`);
        return {};
      }
      if (replyId !== undefined) slot.replies.expect(replyId);
      const withReply = replyId === undefined ? event : { ...event, replyId };
      await slot.call(live, { kind: "onEvent", ctx: slot.callContext(), event: withReply }, this.timing("onEvent()"));
      return {};
    });
    connection.onRequest(ExtensionAction, async ({ id, blipId, actionId, input, itemId }) => {
      const slot = this.slot(id);
      const prefix = `${id}/`;
      if (!blipId.startsWith(prefix) || blipId.length === prefix.length) {
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `invalid params for extension.action: "blipId" should start with "${prefix}"`,
        );
      }
      const live = await slot.ensureLive();
      if (!live.loaded.hasOnAction) {
        slot.log("warn", `action "${actionId}" pressed on ${blipId} but the extension exports no onAction()`);
        return { emitted: {} };
      }
      const action = {
        blipId,
        key: blipId.slice(prefix.length),
        actionId,
        ...(input === undefined ? {} : { input }),
        ...(itemId === undefined ? {} : { itemId }),
      };
      const emitted = new Map<string, number>();
      const stop = slot.blips.record(emitted);
      try {
        await slot.call(live, { kind: "onAction", ctx: slot.callContext(), action }, this.timing("onAction()"));
      } finally {
        stop();
      }
      return { emitted: Object.fromEntries(emitted) };
    });
    connection.onRequest(ToolRun, ({ id, ...params }) => runTool(this.slot(id), config, params, this.toolRuns));
    connection.onRequest(ToolCancel, ({ id, runId }) => ({ cancelled: this.toolRuns.cancel(id, runId) }));
    connection.onRequest(ToolDrop, ({ id, ...params }) => dropOnTool(this.slot(id), config, params));
    connection.onRequest(Shutdown, () => {
      // Answer first; the connection writes the answer before this timer fires.
      this.shuttingDown = true;
      setImmediate(() => void this.stop());
      return {};
    });
    if (config.testHooks) {
      connection.onRequest(TestAdvanceClock, ({ ms }) => ({ now: this.options.clock.advance(ms) }));
    }
  }

  /** Disposes every sandbox and flushes every seq.json, then calls `onStopped`. Idempotent. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = (async () => {
        const slots = [...this.slots.values()];
        this.slots.clear();
        await Promise.allSettled(slots.map((slot) => slot.unload()));
        await Promise.resolve(this.options.sandboxes.dispose?.()).catch(() => {});
        this.options.connection.dispose("the runtime stopped");
        this.options.onStopped();
      })();
    }
    return this.stopping;
  }

  private async initialize(params: { protocolVersion: number; dataDir: string; timeZone?: string; locale?: string }) {
    if (this.dataRoot !== null) throw new ResponseError(ErrorCodes.InvalidRequest, "already initialized");
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)) {
      throw new ResponseError(
        ErrorCodes.UnsupportedProtocolVersion,
        `protocol version ${params.protocolVersion} is not supported: this runtime speaks version ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`,
        { supported: SUPPORTED_PROTOCOL_VERSIONS },
      );
    }
    let warm: void | Promise<void>;
    try {
      warm = this.options.sandboxes.configure?.({
        timeZone: params.timeZone,
        locale: params.locale,
        compiledCodeDir: compiledCodeDir(params.dataDir),
      });
    } catch (error) {
      const field = (error as Error).message.startsWith("locale") ? "locale" : "timeZone";
      throw new ResponseError(ErrorCodes.InvalidParams, `${field}: ${(error as Error).message}`);
    }
    // The pool warms (sandbox threads started, warmed up, spares made) while the folder is made:
    // the app's first loads, sent right after this answer, then find everything ready.
    await Promise.all([mkdir(params.dataDir, { recursive: true }), Promise.resolve(warm).catch(() => {})]);
    this.dataRoot = params.dataDir;
    return {
      protocolVersion: PROTOCOL_VERSION,
      runtimeVersion: this.options.runtimeVersion,
      nodeVersion: process.versions.node,
    };
  }

  private slot(id: string): ExtensionSlot {
    const slot = this.slots.get(id);
    if (!slot)
      throw new ResponseError(ErrorCodes.UnknownExtension, `no extension "${id}" is loaded: send extension.load first`);
    return slot;
  }

  private timing(what: string): CallTiming {
    const { callAbortMs, callGiveUpMs } = this.options.config;
    return { abortMs: callAbortMs, giveUpMs: callGiveUpMs, failCode: ErrorCodes.ExtensionFailed, what };
  }

  private nextRun(slot: ExtensionSlot, result: unknown): { nextRunAfter?: number } {
    if (result === undefined || result === null) return {};
    const value = typeof result === "object" ? (result as { nextRunAfter?: unknown }).nextRunAfter : result;
    if (value === undefined) return {};
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return { nextRunAfter: value };
    slot.log(
      "warn",
      `update() returned nextRunAfter ${JSON.stringify(value)}: it should be a number of seconds, 0 or more; ignored`,
    );
    return {};
  }
}
