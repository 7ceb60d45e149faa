/**
 * The host's extensions: what discovery found, what the runtime has loaded, and keeping the two
 * in step. `refresh()` rescans every root and loads, reloads or unloads what changed (hot
 * reload); `restoreAll()` loads everything again into a restarted runtime; webhook and file
 * events are delivered through here.
 */
import { join, resolve } from "node:path";
import { unsetRequiredOptions, type Manifest, type ToolSpec } from "@svc/api";
import { ExtensionEvent, ExtensionLoad, ExtensionUnload } from "@svc/runtime";
import type { HookDelivery, HookTarget } from "../http/index.js";
import { discover, type Catalog, type DiscoveredExtension, type ExtensionRoot } from "../discovery/index.js";
import type { ExtensionSummary, HostEvent } from "../events/index.js";
import { resolvePreferences, type PreferenceSource } from "../preferences/index.js";
import { parseInterval, type Scheduler } from "../scheduler/index.js";
import { checkWatchPaths, type FileTriggers } from "../watch/index.js";
import type { RuntimeSupervisor } from "../supervisor/index.js";
import { readDisabled } from "../support/index.js";
import { InFlight } from "./in-flight.js";
import { LoadGates } from "./load-gates.js";
import type { Verdict } from "../ledger/index.js";
import type { ExtensionSetSnapshot } from "../manage/index.js";

export interface ExtensionSetDeps {
  roots: readonly ExtensionRoot[];
  supervisor: RuntimeSupervisor;
  scheduler: Scheduler;
  fileTriggers: FileTriggers;
  preferences: PreferenceSource;
  /** Removes every blip of an extension that is gone. */
  forgetBlips(extensionId: string): void;
  emit(event: HostEvent): void;
  home?: string;
  /** svc's support folder: `triggers.watch` never watches inside it (but for the extension's data folder). */
  supportDir?: string;
  /** The host's requests running inside extensions (events are counted here too). */
  inFlight?: InFlight;
  /** `disabled.json`, read on every rescan: extensions listed there are found but not loaded. */
  disabledFile?: string;
  /**
   * The permission ledger's check of a user extension before every load (start, hot reload,
   * runtime restart): one that is not what the person approved is held, not loaded.
   */
  approve?(ext: DiscoveredExtension): Promise<Verdict>;
  /** The origins the person granted `id` through its `url` options, by option (the permission ledger). */
  grantsOf?(id: string): Promise<Record<string, string>>;
}

type LoadReason = "discovered" | "reloaded" | "restored" | "preferences";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * @example
 * const extensions = new ExtensionSet({ roots, supervisor, scheduler, fileTriggers, preferences, forgetBlips, emit });
 * await extensions.refresh();            // at launch: load every extension found
 * await extensions.refresh([folder]);    // a file inside `folder` changed: reload it
 */
export class ExtensionSet implements HookTarget {
  private catalog: Catalog = { active: [], broken: [], overridden: [] };
  /** What the runtime was asked to load, by id. */
  private readonly loaded = new Map<string, DiscoveredExtension>();
  /** Tool specs the runtime reported on its last load of each extension. */
  private readonly runtimeTools = new Map<string, ToolSpec[]>();
  /** Problems found while loading (a watch path not allowed, the code failing to load). */
  private readonly problems = new Map<string, string>();
  /** Installed extensions not loaded because they differ from their approval, with what differs. */
  private readonly held = new Map<string, string>();
  /** Extensions with `required` options left without a value, and what to tell the person. */
  private readonly unsetOptions = new Map<string, string>();
  /** Extensions whose stored preferences changed since their last `extension.load`. */
  private readonly changedPreferences = new Set<string>();
  private readonly inFlight: InFlight;
  private disabled: ReadonlySet<string> = new Set();
  /** Extensions whose events must wait: being loaded or reloaded, or their runtime restarting. */
  private readonly gates = new LoadGates();
  private firstScan!: () => void;
  /** Resolves once the first rescan has read the roots (the HTTP server starts then). */
  readonly scanned = new Promise<void>((resolve) => (this.firstScan = resolve));
  /** The runtime's last `extension.status` of each loaded extension. */
  private readonly statuses = new Map<string, { status: string; error?: string }>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ExtensionSetDeps) {
    this.inFlight = deps.inFlight ?? new InFlight();
  }

  /** Every extension found, broken and overridden ones included. */
  get current(): Catalog {
    return this.catalog;
  }

  get(id: string): DiscoveredExtension | undefined {
    return this.loaded.get(id);
  }

  /** The manifest of a loaded extension. */
  manifestOf(id: string): Manifest | undefined {
    return this.loaded.get(id)?.manifest;
  }

  /**
   * A stored preference of `id` changed: its next `preferences` run loads the new values first,
   * and events sent from now on wait for that load (the ones running finish first). The caller
   * then asks for that run, or calls `loadChangedPreferences` itself.
   */
  preferencesChanged(id: string): void {
    if (!this.loaded.has(id)) return;
    this.changedPreferences.add(id);
    this.gates.close(id, "preferences");
  }

  /**
   * Before a `preferences` run: when the values changed since the last load, loads the extension
   * again with them (SPEC.md passes preferences only on `extension.load`), once its running
   * `onAction`/`onEvent` calls are done. Queued like `refresh()`.
   */
  loadChangedPreferences(id: string): Promise<void> {
    if (!this.changedPreferences.has(id)) {
      this.gates.open(id, "preferences");
      return Promise.resolve();
    }
    // Events sent from now on go to the new load; the ones already running finish first.
    this.gates.close(id, "preferences");
    return this.inFlight
      .idle(id)
      .then(() =>
        this.enqueue(async () => {
          const ext = this.loaded.get(id);
          if (ext && this.changedPreferences.has(id)) await this.sendLoad(ext, "preferences");
        }),
      )
      .finally(() => this.gates.open(id, "preferences"));
  }

  /** The runtime died: every event waits until its extension is loaded into the next one. */
  runtimeLost(): void {
    for (const id of this.loaded.keys()) this.gates.close(id, "runtime");
  }

  /** Runs `task` after every refresh or load queued before it. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Rescans the roots and brings the runtime in step: new extensions load, vanished or broken
   * ones unload, and one whose folder is in `changed` (or whose winning folder moved) reloads.
   * Refreshes run one at a time, in order.
   */
  refresh(changed: readonly string[] = []): Promise<void> {
    return this.enqueue(() => this.applyRefresh(new Set(changed.map((folder) => resolve(folder)))));
  }

  /** Loads every extension again into a restarted runtime; the schedule is kept. */
  async restoreAll(): Promise<void> {
    this.runtimeLost();
    await this.queue;
    await Promise.all(
      [...this.loaded.values()].map(async (ext) => {
        try {
          // The runtime reads the code from disk again: checked again first.
          if (await this.approved(ext)) await this.sendLoad(ext, "restored");
        } finally {
          this.gates.open(ext.id, "runtime");
        }
      }),
    );
    // Extensions unloaded meanwhile have nothing to wait for.
    for (const id of this.gates.ids()) if (!this.loaded.has(id)) this.gates.open(id, "runtime");
  }

  /** The runtime reported the tools of a fresh load: they replace the ones from `dist/tools.json`. */
  setRuntimeTools(id: string, tools: ToolSpec[]): void {
    this.runtimeTools.set(id, tools);
    this.deps.emit({ type: "extension.tools", id, tools: tools.map((tool) => tool.id) });
  }

  /** Each loaded extension's tools: the runtime's report of its code, else `dist/tools.json`. */
  toolsByExtension(): Array<{ id: string; title?: string; tools: ToolSpec[] }> {
    return [...this.loaded.values()].map((ext) => ({
      id: ext.id,
      title: ext.manifest?.svc.title,
      tools: this.runtimeTools.get(ext.id) ?? ext.tools,
    }));
  }

  /** Known from discovery (loaded or about to be), so a hook at start-up waits instead of 404. */
  status(extensionId: string): "ok" | "unknown" | "no-webhook" {
    const ext =
      this.loaded.get(extensionId) ??
      (this.gates.has(extensionId) ? this.catalog.active.find((found) => found.id === extensionId) : undefined);
    if (!ext?.manifest) return "unknown";
    return ext.manifest.svc.triggers.webhook ? "ok" : "no-webhook";
  }

  /** The runtime reported a status change (`extension.status`); its last error is kept until the next load. */
  setStatus(id: string, status: string, error?: string): void {
    if (!this.loaded.has(id)) return;
    const last = error ?? this.statuses.get(id)?.error;
    this.statuses.set(id, { status, ...(last === undefined ? {} : { error: last }) });
  }

  /** A run failed or timed out: kept as the extension's last error until its next load. */
  noteRunError(id: string, error: string): void {
    if (!this.loaded.has(id)) return;
    this.statuses.set(id, { status: this.statuses.get(id)?.status ?? "idle", error });
  }

  snapshot(): ExtensionSetSnapshot {
    return {
      catalog: this.catalog,
      disabled: this.disabled,
      loaded: new Set(this.loaded.keys()),
      statuses: this.statuses,
      problems: new Map([...this.unsetOptions, ...this.problems, ...this.held]),
      held: new Set(this.held.keys()),
      toolsOf: (id) =>
        (
          this.runtimeTools.get(id) ??
          [...this.catalog.active, ...this.catalog.broken].find((ext) => ext.id === id)?.tools ??
          []
        ).map((tool) => tool.id),
    };
  }

  /**
   * A webhook body for an extension: cuts a long wait back to the interval, then
   * `extension.event`. While the extension is being loaded or reloaded (or its runtime
   * restarts) the event waits for the new load.
   */
  async deliver(delivery: HookDelivery): Promise<unknown> {
    const { extensionId: id, body, receivedAt, replyId } = delivery;
    await this.gates.pass(id);
    // From here to the request nothing awaits: a reload that starts later waits for this event.
    if (!this.loaded.has(id)) throw new Error(this.problems.get(id) ?? `${id} is no longer loaded`);
    this.deps.scheduler.webhookEvent(id);
    try {
      const result = await this.inFlight.track(
        id,
        this.deps.supervisor.request(ExtensionEvent, {
          id,
          event: { type: "webhook", body, receivedAt },
          ...(replyId === undefined ? {} : { replyId }),
        }),
      );
      this.deps.emit({ type: "event.sent", id, event: "webhook" });
      return result;
    } catch (error) {
      this.deps.emit({ type: "event.sent", id, event: "webhook", error: message(error) });
      throw error;
    }
  }

  /** Unloads everything (at quit, before the runtime is told to shut down). */
  async dispose(): Promise<void> {
    await this.queue;
    await this.deps.fileTriggers.dispose();
  }

  private async applyRefresh(changed: Set<string>): Promise<void> {
    const catalog = await discover(this.deps.roots);
    if (this.deps.disabledFile) {
      this.disabled = await readDisabled(this.deps.disabledFile, (problem) =>
        this.deps.emit({ type: "log", level: "warn", message: problem }),
      ).catch(() => new Set<string>());
    }
    this.catalog = catalog;
    const wanted = new Map(catalog.active.filter((ext) => !this.disabled.has(ext.id)).map((ext) => [ext.id, ext]));
    const toLoad: [DiscoveredExtension, "discovered" | "reloaded"][] = [];
    for (const ext of wanted.values()) {
      const before = this.loaded.get(ext.id);
      if (!before) toLoad.push([ext, "discovered"]);
      else if (before.folder !== ext.folder || changed.has(resolve(ext.folder))) toLoad.push([ext, "reloaded"]);
      else this.loaded.set(ext.id, ext);
    }
    // Events for these wait for their (re)load, however long the loads before them take.
    for (const [ext] of toLoad) this.gates.close(ext.id, "load");
    this.firstScan();
    this.deps.emit(this.summary());
    for (const [id, ext] of this.loaded) {
      if (wanted.has(id)) continue;
      // Its folder is there but broken (a package.json saved half-edited): the last good one runs on.
      const broken = catalog.broken.find((found) => resolve(found.folder) === resolve(ext.folder));
      if (broken?.error && !this.disabled.has(id)) this.keepLastGood(id, broken.error);
      else await this.unload(id);
    }
    for (const id of this.held.keys()) if (!wanted.has(id)) this.held.delete(id);
    for (const [ext, reason] of toLoad) {
      try {
        if (await this.approved(ext)) await this.load(ext, reason);
      } finally {
        this.gates.open(ext.id, "load");
      }
    }
  }

  /** A `required` option without a value is the extension's error until it is set (it still runs). */
  private noteUnsetOptions(id: string, manifest: Manifest, values: Record<string, unknown>): void {
    const unset = unsetRequiredOptions(manifest.svc.preferences, values);
    if (unset.length === 0) return void this.unsetOptions.delete(id);
    const names = unset.map((p) => `"${p.title}" (${p.name})`).join(", ");
    const problem = `needs ${unset.length === 1 ? "its option" : "its options"} ${names}: set ${unset.length === 1 ? "it" : "them"} in Settings, or svc-host set ${id} ${unset[0]!.name}`;
    if (this.unsetOptions.get(id) === problem) return;
    this.unsetOptions.set(id, problem);
    this.deps.emit({ type: "extension.error", id, error: problem });
  }

  /**
   * The ledger's check (user extensions only): false when `ext` is not what was approved; then
   * it is unloaded if it ran, and held with the problem until it is accepted or removed.
   */
  private async approved(ext: DiscoveredExtension): Promise<boolean> {
    if (!this.deps.approve || ext.source !== "user") return true;
    let verdict: Verdict;
    try {
      verdict = await this.deps.approve(ext);
    } catch (error) {
      verdict = { ok: false, problem: `not loaded: its approval could not be checked: ${message(error)}` };
    }
    if (verdict.ok) {
      this.held.delete(ext.id);
      return true;
    }
    if (this.loaded.has(ext.id)) await this.unload(ext.id);
    if (this.held.get(ext.id) !== verdict.problem) {
      this.held.set(ext.id, verdict.problem);
      this.deps.emit({ type: "extension.error", id: ext.id, error: verdict.problem });
      this.deps.emit(this.summary());
    }
    return false;
  }

  private keepLastGood(id: string, error: string): void {
    const problem = `${error} (still running the last good version)`;
    if (this.problems.get(id) === problem) return;
    this.problems.set(id, problem);
    this.deps.emit({ type: "extension.error", id, error: problem });
  }

  private async load(ext: DiscoveredExtension, reason: "discovered" | "reloaded"): Promise<void> {
    const { scheduler, fileTriggers } = this.deps;
    this.loaded.set(ext.id, ext);
    this.runtimeTools.delete(ext.id);
    this.problems.delete(ext.id);
    this.statuses.delete(ext.id);
    scheduler.remove(ext.id);
    await fileTriggers.remove(ext.id);
    if (!(await this.sendLoad(ext, reason))) return;
    scheduler.add(ext.id, { intervalMs: parseInterval(ext.manifest?.svc.interval) });
    await this.watchFiles(ext);
  }

  /** `extension.load`; false (and the problem shown) when the runtime refused it. */
  private async sendLoad(ext: DiscoveredExtension, reason: LoadReason): Promise<boolean> {
    const manifest = ext.manifest!;
    // Cleared before the values are read: a change saved meanwhile marks it again.
    this.changedPreferences.delete(ext.id);
    try {
      const preferences = await resolvePreferences(manifest, this.deps.preferences);
      this.noteUnsetOptions(ext.id, manifest, preferences);
      await this.deps.supervisor.request(ExtensionLoad, {
        id: ext.id,
        path: resolve(ext.folder),
        manifest: { ...manifest.svc, version: manifest.version },
        preferences,
        grantedOrigins: await this.grantedOrigins(ext.id, manifest),
      });
      this.deps.emit({ type: "extension.loaded", id: ext.id, reason });
      return true;
    } catch (error) {
      const problem = `could not be loaded: ${message(error)}`;
      this.problems.set(ext.id, problem);
      this.deps.emit({ type: "extension.error", id: ext.id, error: problem });
      return false;
    } finally {
      // Loaded with the newest values (unless one changed meanwhile): their events may go.
      if (!this.changedPreferences.has(ext.id)) this.gates.open(ext.id, "preferences");
    }
  }

  /** The granted origins of the `url` options `manifest` still declares (a grant outlives no option). */
  private async grantedOrigins(id: string, manifest: Manifest): Promise<string[]> {
    const granted = (await this.deps.grantsOf?.(id)) ?? {};
    return manifest.svc.preferences.flatMap((option) =>
      option.type === "url" && Object.hasOwn(granted, option.name) ? [granted[option.name]] : [],
    );
  }

  private async watchFiles(ext: DiscoveredExtension): Promise<void> {
    const svc = ext.manifest!.svc;
    if (svc.triggers.watch.length === 0) return;
    const { supportDir } = this.deps;
    const fence = supportDir ? { supportDir, dataDir: join(supportDir, "Data", ext.id) } : undefined;
    const { allowed, errors } = checkWatchPaths(svc.triggers.watch, svc.permissions.files, this.deps.home, fence);
    if (errors.length > 0) {
      this.problems.set(ext.id, errors.join("; "));
      for (const error of errors) this.deps.emit({ type: "extension.error", id: ext.id, error });
    }
    if (allowed.length === 0) return;
    await this.deps.fileTriggers.set(ext.id, allowed, (paths) => void this.sendFileEvent(ext.id, paths), fence);
    this.deps.emit({ type: "watching", what: "files", id: ext.id, paths: allowed });
  }

  private async sendFileEvent(id: string, paths: string[]): Promise<void> {
    try {
      // Like a webhook: while the extension (re)loads, the event waits for the new load.
      await this.gates.pass(id);
      if (!this.loaded.has(id)) return;
      await this.inFlight.track(
        id,
        this.deps.supervisor.request(ExtensionEvent, { id, event: { type: "file", paths } }),
      );
      this.deps.emit({ type: "event.sent", id, event: "file", paths });
    } catch (error) {
      this.deps.emit({ type: "event.sent", id, event: "file", paths, error: message(error) });
    }
  }

  private async unload(id: string): Promise<void> {
    this.loaded.delete(id);
    this.gates.release(id);
    this.changedPreferences.delete(id);
    this.runtimeTools.delete(id);
    this.problems.delete(id);
    this.unsetOptions.delete(id);
    this.statuses.delete(id);
    this.deps.scheduler.remove(id);
    await this.deps.fileTriggers.remove(id);
    try {
      await this.deps.supervisor.request(ExtensionUnload, { id });
    } catch {
      // Not loaded there (or the runtime is restarting): nothing to undo.
    }
    this.deps.forgetBlips(id);
    this.deps.emit({ type: "extension.unloaded", id });
  }

  private summary(): HostEvent {
    const describe = (ext: DiscoveredExtension): ExtensionSummary => ({
      id: ext.id,
      title: ext.manifest?.svc.title,
      source: ext.source,
      folder: ext.folder,
      tools: (this.runtimeTools.get(ext.id) ?? ext.tools).map((tool) => tool.id),
      error:
        ext.error ??
        this.held.get(ext.id) ??
        this.problems.get(ext.id) ??
        this.unsetOptions.get(ext.id) ??
        (ext.toolErrors.length ? ext.toolErrors.join("; ") : undefined),
    });
    return {
      type: "extensions",
      active: this.catalog.active.map(describe),
      broken: this.catalog.broken.map(describe),
      overridden: this.catalog.overridden.map(describe),
    };
  }
}
