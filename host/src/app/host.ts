/**
 * svc-host assembled: the support folder, the blip store, the runtime under supervision, the
 * extensions (discovery, hot reload, file triggers), the scheduler, the HTTP server and the
 * display. `startHost` brings it all up, adding each piece to one `Scope`; `stop()` is that
 * scope's dispose, which takes them down in reverse.
 */
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { PROTOCOL_VERSION, ExtensionAction, ExtensionRun } from "@svc/runtime";
import type { Connection } from "@svc/runtime";
import { Scope } from "@svc/api";
import { startHttpServer, type RunningHttpServer } from "../http/index.js";
import { HostEvents, type HostEvent } from "../events/index.js";
import { ManualClock } from "../clock/index.js";
import { BlipStore, type StoredBlip } from "../store/index.js";
import {
  acquireInstanceLock,
  prepareSupportFolder,
  supportPaths,
  supportRoot,
  type SupportPaths,
} from "../support/index.js";
import { displaySubscriber, type AppLogLevel } from "../display/index.js";
import { Scheduler, type RunTrigger } from "../scheduler/index.js";
import { ExtensionWatcher, FileTriggers } from "../watch/index.js";
import {
  RuntimeProcess,
  RuntimeSupervisor,
  basicHostServices,
  registerHostRequests,
  type HostServices,
} from "../supervisor/index.js";
import { ExtensionSet } from "./extension-set.js";
import { speakers } from "./speakers.js";
import { blipView } from "./blip-view.js";
import { InFlight } from "./in-flight.js";
import { urlOpener } from "./open-url.js";
import { openTrust } from "./trust.js";
import { extensionRoots, type HostOptions } from "./options.js";
import { registerNotifications } from "./runtime-notifications.js";
import { AppSettingsFile, startUiServer, type RunningUiServer } from "../ui-server/index.js";
import { HostUiBackend } from "./ui-backend.js";
import { AgentFiles, AgentSwitches, GivenFiles, ToolRunner, pageTools } from "../tools/index.js";
import { FolderManager, type ExtensionManager } from "../manage/index.js";
import { openLedger } from "./ledger-hooks.js";

/** `input` and `itemId` when given, nothing when not. */
function optional(press: ActionPress): { input?: string; itemId?: string } {
  return {
    ...(press.input === undefined ? {} : { input: press.input }),
    ...(press.itemId === undefined ? {} : { itemId: press.itemId }),
  };
}

/** A button press on a blip (SPEC `extension.action`). */
export interface ActionPress {
  /** The blip id, `<extensionId>/<key>`; the extension is the part before the first `/`. */
  blipId: string;
  actionId: string;
  input?: string;
  itemId?: string;
}

/** How long the host waits for `onAction` (the same 30 s as a run). */
const ACTION_TIMEOUT_MS = 30_000;

/** A running host. */
export interface Host {
  readonly support: SupportPaths;
  readonly extensions: ExtensionSet;
  readonly scheduler: Scheduler;
  readonly store: BlipStore;
  /** The HTTP server's port, when one runs. */
  readonly port: number | undefined;
  /** The UI server's port, when one runs. */
  readonly uiPort: number | undefined;
  /** The current runtime process id (tests kill it to prove the restart). */
  readonly runtimePid: number | undefined;
  /** Screen asleep or locked: scheduled runs wait. */
  pause(): void;
  /** Screen back: overdue runs happen once. */
  resume(): void;
  /** A `manual` (or `preferences`) run of one extension; false when it is not loaded. */
  runNow(id: string, trigger?: RunTrigger): boolean;
  /** A button pressed on a blip: `extension.action`; resolves with the blips it updated and their seqs. */
  action(press: ActionPress): Promise<Record<string, number>>;
  /**
   * Changes one option of a loaded extension as the person would in Settings (passwords
   * included; `null` clears); then the extension runs with trigger `preferences`. Rejects
   * with a message for a person when the option or the value does not fit.
   */
  /** `allowed`: for a `url` option, the origin the person allowed it to reach. */
  setPreference(id: string, name: string, value: unknown, allowed?: string): Promise<void>;
  /** Managing extensions (list, enable, disable, uninstall, options, run): what `/v1/extensions` and the page call. */
  readonly manager: ExtensionManager;
  /** False when the operating system's secret store could not be used at start. */
  readonly secretsAvailable: boolean;
  /** The tools of every loaded extension: list, run, drop, the switch for agents. */
  readonly tools: ToolRunner;
  stop(): Promise<void>;
}

/**
 * @example
 * const host = await startHost({ bundled: ["/repo/extensions"], clock: systemClock,
 *   display: createDisplay("auto", process.stdout), runtimeMain: runtimeMainPath() });
 * process.once("SIGTERM", () => void host.stop());
 */
export async function startHost(options: HostOptions): Promise<Host> {
  // Every piece built is added to this scope, and taken down in reverse: `stop()` is its dispose.
  const scope = new Scope();
  try {
    return await assemble(options, scope);
  } catch (error) {
    // What was built before the failure is taken down (the lock released, the store flushed).
    await scope.dispose().catch(() => {});
    throw error;
  }
}

async function assemble(options: HostOptions, scope: Scope): Promise<Host> {
  const { clock, display } = options;
  scope.use(display);
  // The one bus: the terminal hears first, then the page's feed; `GET /v1/logs` follows it too.
  const events = new HostEvents();
  scope.use(events.subscribe(displaySubscriber(display)));
  const emit = (event: HostEvent) => events.publish(event);
  const log = (level: AppLogLevel, message: string) => emit({ type: "log", level, message });

  const root = options.supportFolder ?? supportRoot();
  await mkdir(root, { recursive: true, mode: 0o700 });
  // Before anything is written: a second app on this folder stops here.
  const lock = await acquireInstanceLock(supportPaths(root).lockFile, root);
  scope.defer(() => lock.release());
  const support = await prepareSupportFolder({ root });
  // A line about one extension (its blip refused at the cap) is on its log stream too, so `svckit dev` shows it.
  const storeLog = (level: AppLogLevel, message: string, extensionId?: string) =>
    emit({ type: "log", level, message, ...(extensionId === undefined ? {} : { extensionId }) });
  const store = await BlipStore.open(support.blipsFile, { log: storeLog });
  scope.use(store);
  // Names come from the catalog (none yet for blips kept from last time: those are named by id).
  const catalogRef: { extensions?: ExtensionSet } = {};
  const speaker = speakers(() => catalogRef.extensions?.current);
  const view = (blip: StoredBlip) => blipView(blip, speaker);
  // Said now, while only the file has written to the store: once the runtime starts, a launch run
  // can update a kept blip before the host is up, and "kept from last time" would show the new one.
  if (store.list().length > 0) emit({ type: "blips.restored", blips: store.list().map(view) });
  scope.defer(
    store.onChange((change) => {
      emit({
        type: "blip",
        change: change.type,
        id: change.blip.id,
        seq: change.blip.seq,
        blip: view(change.blip),
        source: change.blip.source.kind,
      });
    }),
  );

  let http: RunningHttpServer | undefined;
  const supervisorRef: { current?: RuntimeSupervisor } = {};
  const inFlight = new InFlight();
  const scheduler = new Scheduler({
    clock,
    run: async (id, trigger) => {
      // Preferences reach the runtime only on extension.load: a changed one is loaded first.
      if (trigger === "preferences") await extensions.loadChangedPreferences(id);
      return supervisorRef.current!.request(ExtensionRun, { id, trigger: { type: trigger } });
    },
    onRunStart: (id, trigger, at) => emit({ type: "run.start", id, trigger, at }),
    onRunEnd: (report) => {
      if (report.error) extensions.noteRunError(report.id, report.error);
      emit({ type: "run.end", ...report });
    },
  });
  const fileTriggers = new FileTriggers((id, error) => emit({ type: "extension.error", id, error }));
  const notify = (extensionId: string, title: string, body?: string) =>
    emit({
      type: "notify",
      extensionId,
      from: speaker({ kind: "extension", extensionId }),
      title,
      ...(body === undefined ? {} : { body }),
    });
  const openURL = urlOpener({ emit, launch: options.openURLs === true });
  const trust = await openTrust({
    supportRoot: support.root,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
    ...(options.oauthPort === undefined ? {} : { oauthPort: options.oauthPort }),
    manifestOf: (id) => extensions.manifestOf(id),
    openURL,
    notify,
    clock,
    showDeviceCode: (extensionId, code) =>
      emit({
        type: "sign-in.code",
        extensionId,
        from: speaker({ kind: "extension", extensionId }),
        title: code.title,
        userCode: code.userCode,
        verificationUri: code.verificationUri,
        expiresAt: code.expiresAt,
      }),
    onPreferenceChanged: (id, name, by) => {
      extensions.preferencesChanged(id);
      emit({ type: "preference", id, name, by });
      // Not scheduled (its code failed to load): load it with the new values all the same.
      if (!scheduler.runNow(id, "preferences")) void extensions.loadChangedPreferences(id);
    },
    onConnectionsChanged: (id) => void scheduler.runNow(id, "preferences"),
    onProblem: (extensionId, message) => emit({ type: "log", level: "warn", extensionId, message }),
  });
  scope.use(trust);
  const { unavailable } = trust;
  // Said once: the host runs on without it, and each call that needs it answers the same message.
  emit(
    unavailable
      ? {
          type: "secret-store",
          available: false,
          error: unavailable.message,
          ...(unavailable.detail ? { detail: unavailable.detail } : {}),
          ...(unavailable.fix ? { fix: unavailable.fix } : {}),
        }
      : { type: "secret-store", available: true },
  );
  const appSettings = await AppSettingsFile.open(`${support.root}/ui-settings.json`, (message) => log("warn", message));
  // One answer per host op of HOST_REQUESTS: an op the host does not answer does not compile here.
  const services: HostServices = {
    ...basicHostServices({ notify, openURL }),
    ...trust.services,
    workingHours: () => appSettings.current.workingHours,
  };

  const register = (connection: Connection) => {
    registerHostRequests(connection, services);
    registerNotifications(connection, {
      store,
      setTools: (id, tools) => extensions.setRuntimeTools(id, tools),
      setStatus: (id, status, error) => extensions.setStatus(id, status, error),
      respond: (reply) => http?.respond(reply) ?? false,
      publish: emit,
    });
  };
  const supervisor = new RuntimeSupervisor({
    spawn: () =>
      RuntimeProcess.spawn({
        main: options.runtimeMain,
        env: options.runtimeEnv,
        dataDir: support.data,
        onStderr: (line) => emit({ type: "log", level: "debug", message: `runtime: ${line}` }),
        onNote: (message) => emit({ type: "log", level: "debug", message: `runtime connection: ${message}` }),
      }),
    register,
    initialize: {
      protocolVersion: PROTOCOL_VERSION,
      dataDir: support.data,
      locale: options.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
      timeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
    onReady: async (_connection, restored) => {
      if (restored) await extensions.restoreAll();
    },
    onState: (state, detail, pid) => {
      // Events wait for the restored load rather than fail while the runtime is down.
      if (state === "exited") extensions.runtimeLost();
      emit({ type: "runtime", state, ...(detail ? { detail } : {}), ...(pid ? { pid } : {}) });
    },
    backoff: options.backoff,
  });
  supervisorRef.current = supervisor;
  scope.use(supervisor);

  const ledger = await openLedger(support.root, trust.secrets.store, log);
  const roots = extensionRoots(options.bundled, support.extensions);
  const extensions = new ExtensionSet({
    roots,
    supervisor,
    scheduler,
    fileTriggers,
    preferences: trust.preferences,
    inFlight,
    forgetBlips: (id) => void store.removeExtension(id),
    emit,
    home: options.home,
    supportDir: support.root,
    disabledFile: support.disabledFile,
    approve: (ext) => ledger.check(ext),
    grantsOf: (id) => ledger.grantedOrigins(id),
  });
  trust.preferences.useGrants(ledger);
  catalogRef.extensions = extensions;

  const switches = await AgentSwitches.open(join(support.root, "agent-tools.json"), log);
  const manager = new FolderManager({
    support,
    running: true,
    snapshot: async () => extensions.snapshot(),
    rescan: () => extensions.refresh(),
    preferences: trust.preferences,
    secrets: trust.secrets.store,
    runNow: (id) => scheduler.runNow(id, "manual"),
    ledger,
    switches,
  });

  // Screen asleep or locked, and back: from the control channel and from `/v1/scheduler`.
  const pause = () => {
    if (scheduler.paused) return;
    scheduler.pause();
    emit({ type: "paused", at: clock.now() });
  };
  const resume = () => {
    if (!scheduler.paused) return;
    emit({ type: "resumed", at: clock.now() });
    // Before the runs start: what went quiet while asleep reads stale until it updates.
    store.markStaleAtWake(clock.now());
    scheduler.resume();
  };
  let ui: RunningUiServer | undefined;
  // An agent's file paths wait for the person in the open notch (no UI server: nobody to ask).
  const agentFiles = new AgentFiles({
    publish: (waiting) => ui?.publish({ type: "agentFiles", waiting }),
    viewers: () => ui?.viewers() ?? 0,
    ...(options.agentFilesTimeoutMs === undefined ? {} : { timeoutMs: options.agentFilesTimeoutMs }),
    log,
  });
  const tools = new ToolRunner({
    extensions: () => extensions.toolsByExtension(),
    request: (type, params, sendOptions) => supervisor.request(type, params, sendOptions),
    dataDir: support.data,
    switches,
    agentFiles,
    track: (id, work) => inFlight.track(id, work),
    log,
  });

  // A button pressed on a blip, and an option changed in Settings: for the page and for `Host`.
  const action: Host["action"] = async (press) => {
    const id = press.blipId.slice(0, Math.max(0, press.blipId.indexOf("/")));
    const base = { id, blipId: press.blipId, actionId: press.actionId };
    try {
      if (!extensions.get(id)) throw new Error(`no loaded extension owns ${press.blipId}`);
      const request = supervisor.request(
        ExtensionAction,
        { ...base, ...optional(press) },
        { timeoutMs: ACTION_TIMEOUT_MS },
      );
      const { emitted = {} } = await inFlight.track(id, request);
      emit({ type: "action", ...base, emitted });
      return emitted;
    } catch (error) {
      emit({ type: "action", ...base, error: (error as Error).message });
      throw error;
    }
  };
  const setPreference: Host["setPreference"] = async (id, name, value, allowed) => {
    const manifest = extensions.manifestOf(id);
    if (!manifest) throw new Error(`no loaded extension ${id}`);
    await trust.preferences.change(manifest, name, value, "settings", allowed);
  };

  // Dropped and picked files: registered by the desktop shell over /v1, used by the page by handle.
  const givenFiles = new GivenFiles();

  await supervisor.start();
  if (options.ui !== false) {
    const backend = new HostUiBackend({
      store,
      extensions,
      preferences: trust.preferences,
      settings: appSettings,
      secretsAvailable: !trust.unavailable,
      action,
      setPreference,
      runNow: (id) => scheduler.runNow(id, "manual"),
      publish: (event) => ui?.publish(event),
      supportDir: support.root,
      events,
      view,
      oauth: trust.oauth,
      manager,
      tools: pageTools(tools, givenFiles),
      agentFiles,
      givenFiles,
      ledger,
      bundled: options.bundled,
    });
    scope.use(backend);
    await backend.refreshManaged();
    const server = await startUiServer({ backend, ...options.ui, log });
    scope.defer(() => server.close());
    ui = server;
  }
  // Discovery first: a hook that arrives while extensions load waits for its extension's load.
  const firstLoad = extensions.refresh();
  await Promise.race([extensions.scanned, firstLoad]);
  if (options.port !== false) {
    http = await startHttpServer({
      ...(ui ? { uiTicketUrl: ui.ticketUrl } : {}),
      store,
      hooks: extensions,
      webhookFile: support.webhookFile,
      log,
      events,
      scheduler: {
        get paused() {
          return scheduler.paused;
        },
        pause,
        resume,
        // On battery the desktop shell asks for calmer schedules (scheduler.ts).
        get onBattery() {
          return scheduler.onBattery;
        },
        setOnBattery: (on: boolean) => {
          if (scheduler.onBattery === on) return;
          scheduler.setOnBattery(on);
          emit({ type: "power", onBattery: on, at: clock.now() });
        },
      },
      tools,
      givenFiles,
      extensions: manager,
      ...(options.port === undefined ? {} : { port: options.port }),
    });
  }
  if (http) {
    const server = http;
    scope.defer(() => server.close());
    await lock.setPort(server.port);
  }
  emit({
    type: "started",
    supportFolder: support.root,
    port: http?.port,
    clock: clock instanceof ManualClock ? "manual" : "system",
  });
  await firstLoad;
  const watcher = await ExtensionWatcher.start({
    roots: roots.map((root) => root.path),
    onChange: (folders) => void extensions.refresh(folders),
    onError: (message) => log("warn", message),
  });
  emit({ type: "watching", what: "extensions", paths: roots.map((root) => root.path) });
  // Added last, so taken down first: what starts new work (schedules, file and folder events,
  // agents' waiting requests), before the servers, the runtime and the store it would reach.
  scope.defer(() => scheduler.dispose());
  scope.use(extensions);
  scope.use(watcher);
  scope.use(agentFiles);
  scope.defer(() => emit({ type: "stopping" }));

  return {
    support,
    extensions,
    scheduler,
    store,
    get port() {
      return http?.port;
    },
    get uiPort() {
      return ui?.port;
    },
    get runtimePid() {
      return supervisor.pid;
    },
    pause,
    resume,
    runNow: (id, trigger = "manual") => scheduler.runNow(id, trigger),
    action,
    setPreference,
    manager,
    secretsAvailable: !trust.unavailable,
    tools,
    stop: () => scope.dispose(),
  };
}
