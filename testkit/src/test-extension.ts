/**
 * One extension under test, as `loadExtension` makes it: the app's own sandbox and runtime
 * processing, driven by a test. The runtime is svc-runtime's real service, in-process; the app
 * around it is the fake host (answers a test sets, requests it records), the blip board (what
 * the notch would show) and the schedule; one manual clock drives all of it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import type { Block, BlipPayload, SvcManifest, ToolSpec } from "@svc/api";
import {
  BlipEnd,
  BlipRemove,
  BlipUpdate,
  ExtensionAction,
  ExtensionDenied,
  ExtensionEvent,
  ExtensionLoad,
  ExtensionRun,
  ExtensionStatusChanged,
  ExtensionTools,
  Initialize,
  Log,
  PROTOCOL_VERSION,
  Shutdown,
  ToolDrop,
  ToolRun,
  WebhookRespond,
  type Connection,
  type LogLevel,
} from "@svc/runtime";
import { createCapabilities, type Denial } from "@svc/sandbox";
import { BlipBoard } from "./blip-board.js";
import { FakeHost, type SignIn } from "./fake-host.js";
import { answerHostCalls } from "./host-requests.js";
import { FolderView } from "./folder-view.js";
import { HttpRecording } from "@svc/sandbox";
import { startInProcessRuntime } from "./in-process-runtime.js";
import type { LoadOptions } from "./load-extension.js";
import { ManualClock } from "./manual-clock.js";
import { ProgramRecording } from "./program-recording.js";
import { resolvePreferences } from "./preferences.js";
import { RunSchedule } from "./schedule.js";
import { momentOf, TestClock } from "./test-clock.js";
import { snapshotOf } from "./snapshot.js";
import { WorkTracker } from "./work-tracker.js";

/** Monday 6 January 2025, 09:00 UTC: where every test's clock starts unless told otherwise. */
export const DEFAULT_START = Date.UTC(2025, 0, 6, 9, 0, 0);

export interface LogLine {
  level: LogLevel;
  message: string;
}

type Trigger = "launch" | "interval" | "manual" | "preferences";

/** What the runtime answered a call with, kept as the error a test sees. */
function callError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** One extension under test. Every method that runs extension code resolves once it has gone quiet. */
export class TestExtension {
  readonly id: string;
  readonly clock: TestClock;
  /** The fake app: set secrets, sign people in, set working hours; read notify/openURL/setPreference calls. */
  readonly host: FakeHost;
  /** Every `blip.update` payload, in order (the board keeps only the latest of each). */
  readonly updates: BlipPayload[] = [];
  readonly logs: LogLine[] = [];
  /** What the fence refused, with the manifest line that would allow it. */
  readonly denials: Denial[] = [];
  /** The tools the runtime reported (canonical specs). */
  tools: ToolSpec[] = [];
  /** `extension.status` as the runtime reported it, in order: `loaded`, `running`, `idle`, `crashed` (with `error`). */
  readonly statuses: { status: string; heapUsed?: number; cpuMs?: number; error?: string }[] = [];
  /** `ctx.respond` answers to webhook events. */
  readonly responses: { replyId: string; status: number; body: unknown }[] = [];
  private readonly manual: ManualClock;
  private readonly board: BlipBoard;
  private readonly work = new WorkTracker();
  private preferences: Record<string, unknown>;
  private connection: Connection | undefined;
  private stopRuntime: (() => Promise<void>) | undefined;
  private recording: HttpRecording | undefined;
  private programs: ProgramRecording | undefined;
  private dataRoot: string | undefined;
  private preferencesChanged = false;
  private readonly schedule: RunSchedule;
  private nextReply = 1;
  private disposed = false;

  constructor(
    readonly dir: string,
    readonly manifest: { svc: SvcManifest; version: string },
    options: LoadOptions,
  ) {
    this.id = manifest.svc.id;
    this.manual = new ManualClock(options.now === undefined ? DEFAULT_START : momentOf(options.now));
    this.board = new BlipBoard(() => this.manual.now());
    this.clock = new TestClock(this.manual, (ms) => this.advance(ms));
    this.schedule = new RunSchedule(manifest.svc.interval);
    this.preferences = resolvePreferences(manifest.svc, options.preferences ?? {});
    this.host = new FakeHost({
      extensionId: this.id,
      title: manifest.svc.title,
      preferences: manifest.svc.preferences,
      providers: Object.keys(manifest.svc.oauth ?? {}),
      secrets: options.secrets,
      signIns: options.signIns,
      workingHours: options.workingHours ?? null,
      now: () => this.manual.now(),
    });
    this.host.onPreferenceChange(({ name, value }) => {
      this.preferences = { ...this.preferences, [name]: value };
      this.preferencesChanged = true;
    });
  }

  /** @internal Started by `loadExtension`. */
  async start(options: LoadOptions): Promise<void> {
    // A support folder of its own holding `Data/`, as svc's is: the runtime refuses reads in that folder.
    this.dataRoot = join(await mkdtemp(join(tmpdir(), "svc-testkit-")), "Data");
    if (options.storage) {
      await mkdir(join(this.dataRoot, this.id), { recursive: true });
      await writeFile(join(this.dataRoot, this.id, "storage.json"), JSON.stringify(options.storage));
    }
    if (options.recording !== undefined) {
      const file = isAbsolute(options.recording) ? options.recording : join(this.dir, options.recording);
      const record = options.record ?? process.env.SVC_TEST_RECORD === "1";
      this.recording = await HttpRecording.open(file, {
        mode: record ? "record" : "replay",
        secrets: () => this.knownSecrets(),
      });
    }
    if (options.programs !== undefined) {
      this.programs = await ProgramRecording.open(
        isAbsolute(options.programs) ? options.programs : join(this.dir, options.programs),
      );
    }
    const capabilities = createCapabilities({
      transport: this.recording?.transport,
      // The recorded programs live in a folder the test's user can write: they are the kit's own.
      ...(this.programs ? { execPath: this.programs.path, allowWritablePrograms: true } : {}),
    });
    const folders = options.folders === undefined ? undefined : new FolderView(options.folders, this.dir);
    const runtime = startInProcessRuntime({
      clock: this.manual,
      capabilities: this.work.capabilities(folders ? folders.capabilities(capabilities) : capabilities),
      timeZone: options.timeZone ?? "UTC",
      locale: options.locale ?? "en-US",
      onSandboxEvent: (event) => {
        if (event.type === "denied") this.denials.push(event.denial);
      },
      forwardedCalls: (host) => this.work.forwardedCalls(host),
      // The runtime's own diagnostics (svc-runtime's stderr): only ever a bug of ours.
      note: (message) => void process.stderr.write(`svc-testkit: ${message}\n`),
    });
    this.stopRuntime = runtime.stop;
    this.connection = runtime.host;
    this.listen(runtime.host);
    await runtime.host.sendRequest(Initialize, {
      protocolVersion: PROTOCOL_VERSION,
      dataDir: this.dataRoot,
      locale: options.locale ?? "en-US",
      timeZone: options.timeZone ?? "UTC",
    });
    await this.load();
  }

  /** When the schedule runs `update()` next (epoch ms), if it will. */
  /**
   * The fetches a recording answered, in order (`status` 0 for a recorded failure): to count
   * calls, or see that a conditional request got its 304.
   */
  get fetches(): readonly { method: string; url: string; status: number }[] {
    return this.recording?.served ?? [];
  }

  get nextRunAt(): number | undefined {
    return this.schedule.nextRunAt;
  }

  /** The blips on show now, in the order they first appeared (latest payload of each). */
  get blips(): BlipPayload[] {
    return this.board.list().map((b) => b.payload);
  }

  /** One blip on show, by key or full id. */
  blip(keyOrId: string): BlipPayload | undefined {
    return this.board.get(this.blipId(keyOrId))?.payload;
  }

  /** Whether the extension ended the blip, and how. */
  ended(keyOrId: string): { at: string; state?: string; dismissAt?: string } | undefined {
    const ended = this.board.get(this.blipId(keyOrId))?.ended;
    if (!ended) return undefined;
    return {
      at: new Date(ended.at).toISOString(),
      ...(ended.state === undefined ? {} : { state: ended.state }),
      ...(ended.dismissAt === undefined ? {} : { dismissAt: new Date(ended.dismissAt).toISOString() }),
    };
  }

  /** True once the blip's `staleAfter` has passed on the test's clock. */
  isStale(keyOrId: string): boolean {
    return this.board.isStale(this.blipId(keyOrId));
  }

  /** The blips on show, ready for a snapshot: no `emittedAt`, varying ids replaced. */
  snapshot(): unknown {
    return snapshotOf(this.blips);
  }

  /** `ctx.storage` as the extension left it (read from its file). */
  readonly storage = {
    get: async (key: string): Promise<unknown> => (await this.readStorage())[key],
    all: (): Promise<Record<string, unknown>> => this.readStorage(),
  };

  /**
   * Runs `update()` (trigger `manual` unless told) and schedules the next run like the app:
   * after `nextRunAfter` seconds when it returns one (at least 1 s), else after the manifest's interval.
   */
  async run(trigger: Trigger = "manual"): Promise<{ nextRunAfter?: number }> {
    return this.call(() => this.runUpdate(trigger));
  }

  /**
   * Changes one option as the person would in Settings (`null` clears it; a `url` option's
   * origin is then granted, the old one taken back); `update()` then runs with trigger
   * `preferences`, as in the app.
   */
  async setPreference(name: string, value: string | number | boolean | null): Promise<{ nextRunAfter?: number }> {
    resolvePreferences(this.manifest.svc, { [name]: value }); // an undeclared name throws, naming the declared ones
    this.preferences = { ...this.preferences, [name]: value };
    return this.call(async () => {
      await this.load();
      return this.runUpdate("preferences");
    });
  }

  /** Presses a button (or quick choice) on a blip, by key or full id; `itemId` for a list item's button. */
  async action(
    blip: string,
    actionId: string,
    options: { input?: string; itemId?: string } = {},
  ): Promise<{ emitted: Record<string, number> }> {
    return this.call(async () => {
      const result = await this.runtime().sendRequest(ExtensionAction, {
        id: this.id,
        blipId: this.blipId(blip),
        actionId,
        ...options,
      });
      return { emitted: result.emitted ?? {} };
    });
  }

  /**
   * Delivers a webhook body (`{type: "webhook", body}`) or a file change (`{type: "file", paths}`).
   * With `reply: true` the event carries a `replyId`, and the answer the extension gave with
   * `ctx.respond` is returned. A webhook cuts a wait longer than the interval back to it.
   */
  async event(
    event: { type: "webhook"; body: unknown; reply?: boolean } | { type: "file"; paths: string[] },
  ): Promise<{ response?: { status: number; body: unknown } }> {
    return this.call(async () => {
      const replyId = event.type === "webhook" && event.reply ? `reply-${this.nextReply++}` : undefined;
      const delivered =
        event.type === "webhook"
          ? { type: "webhook" as const, body: event.body, receivedAt: new Date(this.manual.now()).toISOString() }
          : { type: "file" as const, paths: event.paths };
      await this.runtime().sendRequest(ExtensionEvent, {
        id: this.id,
        event: delivered,
        ...(replyId ? { replyId } : {}),
      });
      if (event.type === "webhook") this.schedule.webhook();
      const answer = replyId ? this.responses.find((r) => r.replyId === replyId) : undefined;
      return answer ? { response: { status: answer.status, body: answer.body } } : {};
    });
  }

  /** Runs a tool; `action` defaults to its first action. Resolves with the blocks the app would draw. */
  async tool(name: string, options: { action?: string; values?: Record<string, unknown> } = {}): Promise<Block[]> {
    return this.call(async () => {
      const action = options.action ?? this.tools.find((t) => t.id === name)?.actions[0]?.id ?? "run";
      const result = await this.runtime().sendRequest(ToolRun, {
        id: this.id,
        tool: name,
        action,
        values: options.values ?? {},
      });
      return result.blocks as Block[];
    });
  }

  /** Drops files on a tool's drop action. */
  async drop(
    name: string,
    options: { action: string; files: string[] },
  ): Promise<{ message: string; outputs: string[]; copiedText?: string }> {
    return this.call(() =>
      this.runtime().sendRequest(ToolDrop, { id: this.id, tool: name, action: options.action, files: options.files }),
    );
  }

  /** Signs someone in, as if they finished the sign-in page, then runs `update()` as the app does after a sign-in. */
  async signIn(signIn: SignIn): Promise<void> {
    this.host.signIn(signIn);
    await this.run("preferences");
  }

  /** Shuts the runtime down, saves a recording being made, removes the data folder. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    try {
      if (this.connection) await this.connection.sendRequest(Shutdown, {}).catch(() => undefined);
      await this.stopRuntime?.();
      await this.recording?.save();
    } finally {
      await this.programs?.dispose();
      if (this.dataRoot) await rm(dirname(this.dataRoot), { recursive: true, force: true });
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  // ---- internals -------------------------------------------------------------------------

  private runtime(): Connection {
    if (this.disposed || !this.connection) throw new Error(`${this.id}: the test extension was disposed`);
    return this.connection;
  }

  private load(): Promise<unknown> {
    const { svc, version } = this.manifest;
    return this.runtime().sendRequest(ExtensionLoad, {
      id: this.id,
      path: this.dir,
      manifest: { ...svc, version },
      preferences: this.preferences,
      grantedOrigins: this.grantedOrigins(),
    });
  }

  /**
   * A `url` option the test set stands for an address the person typed and allowed: the fence
   * admits its origin, as svc-host's grant does (the test asks nothing).
   */
  private grantedOrigins(): string[] {
    return this.manifest.svc.preferences.flatMap((p) => {
      const value = this.preferences[p.name];
      return p.type === "url" && typeof value === "string" ? [value] : [];
    });
  }

  /** Runs `body`, lets the extension go quiet, then applies what the app would do next. */
  private async call<T>(body: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await body();
    } catch (error) {
      await this.work.settled();
      throw (await this.unmatchedRequest()) ?? callError(error);
    }
    await this.work.settled();
    const unmatched = await this.unmatchedRequest();
    if (unmatched) throw unmatched;
    if (this.preferencesChanged) {
      // Saved like a Settings change, then update() runs with trigger `preferences` (SPEC).
      this.preferencesChanged = false;
      await this.load();
      await this.run("preferences");
    }
    return result;
  }

  /** A request or program run that found no recording since the last call. */
  private async unmatchedRequest(): Promise<Error | undefined> {
    return this.recording?.takeFailure() ?? (await this.programs?.takeFailure());
  }

  /**
   * One `extension.run`; the next is scheduled whatever its outcome (a failed run waits the interval, as in the app).
   */
  private async runUpdate(trigger: Trigger): Promise<{ nextRunAfter?: number }> {
    let result: { nextRunAfter?: number } = {};
    try {
      result = await this.runtime().sendRequest(ExtensionRun, { id: this.id, trigger: { type: trigger } });
      return result;
    } finally {
      this.schedule.ranAt(this.manual.now(), result.nextRunAfter);
    }
  }

  /** Moves the clock, running in time order every timer, scheduled run and dismissal that falls due. */
  private async advance(ms: number): Promise<void> {
    const target = this.manual.now() + ms;
    await this.call(async () => {
      // Work started just before (a call not awaited yet) arms its timers first, at the current time.
      await this.work.settled();
      for (;;) {
        const due = [this.manual.nextDue(), this.schedule.nextRunAt, this.board.nextDismissal()].filter(
          (at): at is number => at !== undefined && at <= target,
        );
        if (due.length === 0) break;
        const at = Math.min(...due);
        if (this.manual.step(at) > 0) {
          await this.work.settled();
          continue;
        }
        if ((this.board.nextDismissal() ?? Infinity) <= at) this.board.dismissDue();
        if ((this.schedule.nextRunAt ?? Infinity) <= at) {
          this.schedule.nextRunAt = undefined;
          await this.runUpdate("interval");
          await this.work.settled();
        }
      }
      this.manual.step(target);
    });
  }

  private listen(connection: Connection): void {
    connection.onNotification(BlipUpdate, ({ payload }) => {
      this.updates.push(payload as BlipPayload);
      this.board.update(payload as BlipPayload);
    });
    connection.onNotification(BlipEnd, (params) => this.board.end(params));
    connection.onNotification(BlipRemove, ({ id }) => this.board.remove(id));
    connection.onNotification(Log, ({ level, message }) => void this.logs.push({ level, message }));
    connection.onNotification(
      ExtensionStatusChanged,
      ({ extensionId: _, ...status }) => void this.statuses.push(status),
    );
    // Denials are kept whole from the sandbox's own event (`onSandboxEvent` above); the runtime's
    // record of the same refusal is heard here so it is not reported as unhandled.
    connection.onNotification(ExtensionDenied, () => {});
    connection.onNotification(ExtensionTools, ({ tools }) => void (this.tools = tools as ToolSpec[]));
    connection.onNotification(WebhookRespond, (params) => void this.responses.push(params));
    answerHostCalls(connection, this.host);
  }

  private blipId(keyOrId: string): string {
    return keyOrId.startsWith(`${this.id}/`) ? keyOrId : `${this.id}/${keyOrId}`;
  }

  private async readStorage(): Promise<Record<string, unknown>> {
    if (!this.dataRoot) return {};
    try {
      return JSON.parse(await readFile(join(this.dataRoot, this.id, "storage.json"), "utf8")) as Record<
        string,
        unknown
      >;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }

  /** Every value a recording must never hold: secrets, password preferences, tokens. */
  private knownSecrets(): string[] {
    const passwords = this.manifest.svc.preferences
      .filter((p) => p.type === "password")
      .map((p) => this.preferences[p.name])
      .filter((v): v is string => typeof v === "string");
    return [...this.host.knownSecrets(), ...passwords];
  }
}
