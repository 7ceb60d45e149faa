/**
 * The host as the UI server sees it: the snapshot a new page starts from, the host's events
 * mapped to the feed's (`UiEvent`), and the commands a page may send. Per extension it remembers
 * what Settings shows (last run, last problem, option values: passwords only as set or not).
 */
import type { Manifest } from "@svc/api";
import type { DiscoveredExtension } from "../discovery/index.js";
import { denialLine } from "@svc/runtime";
import type { BlipView, HostEvent, HostEvents } from "../events/index.js";
import { checkForUpdate, hasStaged, stagedPath, stagedLabel, updateMessage } from "../install/index.js";
import type { Ledger } from "../ledger/index.js";
import { reachOf, type InstallSummary } from "../review/index.js";
import { randomBytes } from "node:crypto";
import type { ExtensionInfo, ExtensionManager } from "../manage/index.js";
import type { OAuthService } from "../oauth/index.js";
import type { PreferenceStore } from "../preferences/index.js";
import type { BlipStore, StoredBlip } from "../store/index.js";
import { InstallReviews } from "../ui-server/index.js";
import { catalogListing, catalogPackage } from "../catalog/index.js";
import type {
  AppSettingsFile,
  UiBackend,
  UiBlip,
  UiEvent,
  UiCatalog,
  UiExtension,
  UiPreference,
  UiSignIn,
} from "../ui-server/index.js";
import type { ExtensionSet } from "./extension-set.js";
import type { AgentFiles, GivenFiles, PageTools } from "../tools/index.js";

export interface UiBackendDeps {
  store: BlipStore;
  extensions: ExtensionSet;
  preferences: PreferenceStore;
  settings: AppSettingsFile;
  secretsAvailable: boolean;
  action: UiBackend["action"];
  setPreference: UiBackend["setPreference"];
  runNow: UiBackend["runNow"];
  publish: (event: UiEvent) => void;
  /** The support folder (installs go to its Extensions/). */
  supportDir: string;
  /** The host's event bus: the feed is one of its subscribers. */
  events: HostEvents;
  /** A stored blip as every display draws it (`blipView`): the snapshot's blips. */
  view(blip: StoredBlip): BlipView;
  oauth: Pick<OAuthService, "connect" | "connections" | "disconnect">;
  /** Enable, disable, uninstall, and each extension's origin and switch. */
  manager: ExtensionManager;
  /** The tools tray's list and runs. */
  tools?: PageTools;
  /** Agents' file requests waiting for the person. */
  agentFiles?: AgentFiles;
  /** Files the person dropped or picked in the desktop shell (registered over `/v1/given-files`). */
  givenFiles?: GivenFiles;
  /** The permission ledger: where each extension was installed from ("check for updates"). */
  ledger?: Ledger;
  /** The bundled roots, whose `catalog/` folders Settings → Add extensions lists. */
  bundled: readonly string[];
}

/** Extension changes that come together (a launch, a rescan) refresh the list once. */
const REFRESH_COALESCE_MS = 50;
/**
 * Changes to the extension list (status, figures, denials, runs) that come within this long of
 * the first are sent to the pages as one `extensions` event. The list is every extension with its
 * options and choices: a flood of status or denial lines from one extension used to send it a
 * few hundred times a second and stall the host.
 */
export const EXTENSIONS_COALESCE_MS = 100;

/** Denials kept per extension. */
const DENIALS_KEPT = 5;
/** How much of a denial's line Settings keeps. */
const DENIAL_SHOWN_CHARS = 500;

/** The blip view as the page gets it: the page names the sender itself, from `extensions`. */
export function uiBlip(view: BlipView): UiBlip {
  const { from: _from, source = "extension", ...rest } = view;
  return { ...rest, source, seq: view.seq ?? 0, ended: view.ended === true };
}

function preferenceOf(
  preference: NonNullable<Manifest["svc"]["preferences"]>[number],
  values: Record<string, unknown>,
): UiPreference {
  const type = preference.type === "textfield" && preference.multiline ? "multiline" : preference.type;
  const stored = values[preference.name];
  const value =
    preference.type === "password"
      ? { set: typeof stored === "string" && stored.length > 0 }
      : (stored ?? ("default" in preference ? preference.default : undefined) ?? null);
  return {
    name: preference.name,
    type,
    title: preference.title,
    required: preference.required === true,
    ...(preference.description === undefined ? {} : { description: preference.description }),
    ...(preference.placeholder === undefined ? {} : { placeholder: preference.placeholder }),
    ...(preference.blips === undefined ? {} : { blips: preference.blips }),
    ...(preference.type === "dropdown"
      ? { options: preference.data.map((choice) => ({ value: choice.value, title: choice.title })) }
      : {}),
    value,
  };
}

export class HostUiBackend implements UiBackend {
  private readonly lastRun = new Map<string, UiExtension["lastRun"]>();
  private readonly lastError = new Map<string, string>();
  private readonly values = new Map<string, Record<string, unknown>>();
  private paused = false;
  private onBattery = false;
  private readonly reviews: InstallReviews;
  private readonly figures = new Map<string, NonNullable<UiExtension["figures"]>>();
  private readonly denials = new Map<string, UiExtension["denials"]>();
  private readonly signIns = new Map<string, UiSignIn[]>();
  private readonly stopListening: () => void;
  /** The manager's list (origin, switch, status), read again whenever extensions change. */
  private managed: ExtensionInfo[] = [];
  /** Per extension: the address it updates from and the version of a staged update, read with the list. */
  private updates = new Map<string, Pick<UiExtension, "address" | "staged">>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private publishTimer: ReturnType<typeof setTimeout> | undefined;

  get tools(): PageTools | undefined {
    return this.deps.tools;
  }

  get givenFiles(): GivenFiles | undefined {
    return this.deps.givenFiles;
  }

  constructor(private readonly deps: UiBackendDeps) {
    this.reviews = new InstallReviews(deps.supportDir);
    const subscription = deps.events.subscribe((event) => this.observe(event));
    this.stopListening = () => subscription.dispose();
  }

  /** Live figures from the runtime's `extension.status`; a problem it names. */
  private statusChanged(event: Extract<HostEvent, { type: "status" }>): void {
    const figures = event.heapUsed !== undefined || event.cpuMs !== undefined;
    if (figures)
      this.figures.set(event.extensionId, {
        ...(event.heapUsed === undefined ? {} : { heapBytes: event.heapUsed }),
        ...(event.cpuMs === undefined ? {} : { cpuMs: event.cpuMs }),
      });
    if (event.error) this.lastError.set(event.extensionId, event.error);
    if (figures || event.error) this.publishExtensions();
  }

  /** A refusal of the sandbox, as the runtime recorded it: "Recently refused" lists these only. */
  private denied(event: Extract<HostEvent, { type: "denied" }>): void {
    const entry = {
      at: new Date(event.denial.at).toISOString(),
      message: denialLine(event.denial).slice(0, DENIAL_SHOWN_CHARS),
    };
    this.denials.set(event.extensionId, [...(this.denials.get(event.extensionId) ?? []), entry].slice(-DENIALS_KEPT));
    this.publishExtensions();
  }

  snapshot() {
    return {
      blips: this.deps.store.list().map((blip) => uiBlip(this.deps.view(blip))),
      extensions: this.extensionList(),
      settings: this.deps.settings.current,
      paused: this.paused,
      onBattery: this.onBattery,
      secretsAvailable: this.deps.secretsAvailable,
      agentFiles: this.deps.agentFiles?.list() ?? [],
    };
  }

  private describe(ext: DiscoveredExtension, status: string, info?: ExtensionInfo): UiExtension {
    const manifest = ext.manifest;
    const problems = [ext.error, ...(ext.oauthProblems ?? []), ...ext.toolErrors].filter((p): p is string =>
      Boolean(p),
    );
    const error = problems.length ? problems.join("; ") : (info?.error ?? this.lastError.get(ext.id));
    const lastRun = this.lastRun.get(ext.id);
    return {
      id: ext.id,
      title: manifest?.svc.title ?? info?.title ?? ext.id,
      source: info?.origin ?? ext.source,
      enabled: info?.enabled ?? true,
      status: info?.status ?? status,
      ...(manifest ? { version: manifest.version } : info?.version ? { version: info.version } : {}),
      ...(manifest?.svc.description ? { description: manifest.svc.description } : {}),
      ...(manifest?.svc.icon ? { icon: manifest.svc.icon } : {}),
      ...(error ? { error } : {}),
      ...(lastRun ? { lastRun } : {}),
      reach: manifest
        ? reachOf(manifest, { supportDir: this.deps.supportDir }).map((item) => ({
            text: item.text,
            ...(item.risk ? { risk: item.risk } : {}),
          }))
        : [],
      preferences: (manifest?.svc.preferences ?? []).map((p) => preferenceOf(p, this.values.get(ext.id) ?? {})),
      tools: ext.tools.map((tool) => tool.id),
      ...(this.figures.has(ext.id) ? { figures: this.figures.get(ext.id)! } : {}),
      denials: this.denials.get(ext.id) ?? [],
      signIns: this.signIns.get(ext.id) ?? [],
      ...this.updates.get(ext.id),
    };
  }

  /** Every extension found (disabled ones included), with what the manager knows of each. */
  private extensionList(): UiExtension[] {
    const { active, broken, overridden } = this.deps.extensions.current;
    const info = new Map(this.managed.map((entry) => [entry.id, entry]));
    const listed = [
      ...active.map((ext) => this.describe(ext, "loaded", info.get(ext.id))),
      ...broken.map((ext) => this.describe(ext, "broken", info.get(ext.id))),
      ...overridden.map((ext) => this.describe(ext, "overridden")),
    ];
    const seen = new Set(listed.map((ext) => ext.id));
    for (const entry of this.managed) {
      if (seen.has(entry.id)) continue;
      listed.push(
        this.describe(
          {
            id: entry.id,
            folder: entry.folder,
            source: entry.origin === "bundled" ? "bundled" : "user",
            tools: [],
            toolErrors: [],
          },
          entry.status,
          entry,
        ),
      );
    }
    return listed;
  }

  /** Reads the manager's list again; resolves once it is in. */
  async refreshManaged(): Promise<void> {
    try {
      this.managed = await this.deps.manager.list();
      const addresses = (await this.deps.ledger?.addresses()) ?? new Map<string, string>();
      const updates = new Map<string, Pick<UiExtension, "address" | "staged">>();
      for (const { id } of this.managed) {
        const address = addresses.get(id);
        const staged = await stagedLabel(this.deps.supportDir, id);
        if (address || staged) updates.set(id, { ...(address ? { address } : {}), ...(staged ? { staged } : {}) });
      }
      this.updates = updates;
    } catch {
      // Keep the last list: the catalog alone still says what runs.
    }
  }

  /** Option values and sign-ins of one extension, read again (they change outside the page too). */
  private async refreshValues(id: string): Promise<void> {
    const manifest = this.deps.extensions.manifestOf(id);
    if (!manifest) return;
    try {
      this.values.set(id, await this.deps.preferences.values(id, manifest));
    } catch {
      // The extension's own log line says why; Settings shows the defaults meanwhile.
    }
    const signIns: UiSignIn[] = [];
    for (const [provider, spec] of Object.entries(manifest.svc.oauth)) {
      const connections = await this.deps.oauth.connections({ extensionId: id, provider }).catch(() => []);
      signIns.push({
        provider,
        title: spec.title ?? provider,
        connections: connections.map((c) => ({
          id: c.id,
          connectedAt: String(c.connectedAt),
          needsReconnect: c.needsReconnect,
          ...(c.account ? { account: c.account } : {}),
          ...(c.label ? { label: c.label } : {}),
        })),
      });
    }
    this.signIns.set(id, signIns);
  }

  /** Sends the list once, EXTENSIONS_COALESCE_MS after the first change not yet sent. */
  private publishExtensions(): void {
    if (this.publishTimer) return;
    this.publishTimer = setTimeout(() => {
      this.publishTimer = undefined;
      this.deps.publish({ type: "extensions", extensions: this.extensionList() });
    }, EXTENSIONS_COALESCE_MS);
    this.publishTimer.unref?.();
  }

  /** The catalog changed (loaded, unloaded, enabled, disabled, removed): the manager's list too. */
  private publishAfterRefresh(): void {
    // Coalesced: a launch that loads a hundred extensions reads the manager's list once or twice.
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refreshManaged().then(() => this.publishExtensions());
    }, REFRESH_COALESCE_MS);
    this.refreshTimer.unref?.();
  }

  /** Maps one host event to what the page needs. */
  private observe(event: HostEvent): void {
    const { publish } = this.deps;
    switch (event.type) {
      case "blip":
        return publish({
          type: "blip",
          change: event.change,
          id: event.id,
          ...(event.blip && event.change !== "remove" ? { blip: uiBlip(event.blip) } : {}),
        });
      case "notify":
        return publish({
          type: "notify",
          extensionId: event.extensionId,
          title: event.title,
          ...(event.body === undefined ? {} : { body: event.body }),
        });
      case "sign-in.code":
        return publish({
          type: "sign-in.code",
          extensionId: event.extensionId,
          title: event.title,
          userCode: event.userCode,
          verificationUri: event.verificationUri,
          expiresAt: event.expiresAt,
        });
      case "openURL":
        return publish({
          type: "openURL",
          url: event.url,
          ...(event.extensionId ? { extensionId: event.extensionId } : {}),
          ...(event.signIn ? { signIn: event.signIn } : {}),
        });
      case "paused":
      case "resumed":
        this.paused = event.type === "paused";
        return publish({ type: "paused", paused: this.paused });
      case "power":
        this.onBattery = event.onBattery;
        return publish({ type: "power", onBattery: this.onBattery });
      case "run.end":
        // A sign-in that finished (or a disconnect) makes the extension run with trigger preferences.
        if (event.trigger === "preferences") void this.refreshValues(event.id).then(() => this.publishExtensions());
        this.lastRun.set(event.id, {
          result: event.result,
          at: event.endedAt,
          ...(event.error ? { error: event.error } : {}),
        });
        if (event.error) this.lastError.set(event.id, event.error);
        return this.publishExtensions();
      case "extension.error":
        this.lastError.set(event.id, event.error);
        return this.publishExtensions();
      case "status":
        return this.statusChanged(event);
      case "denied":
        return this.denied(event);
      case "extension.loaded":
        void this.refreshValues(event.id).then(() => this.publishAfterRefresh());
        return;
      case "preference":
        void this.refreshValues(event.id).then(() => this.publishExtensions());
        return;
      case "extensions":
      case "extension.unloaded":
        return this.publishAfterRefresh();
      case "extension.tools":
        return this.publishExtensions();
      default:
    }
  }

  action: UiBackend["action"] = (press) => this.deps.action(press);
  setPreference: UiBackend["setPreference"] = (id, name, value, allowed) =>
    this.deps.setPreference(id, name, value, allowed);
  runNow: UiBackend["runNow"] = (id) => this.deps.runNow(id);

  async manage(extensionId: string, action: "enable" | "disable" | "uninstall"): Promise<void> {
    if (action === "uninstall") await this.deps.manager.uninstall(extensionId);
    else await this.deps.manager[action](extensionId);
    await this.refreshManaged();
    this.publishExtensions();
  }

  async signIn(request: Parameters<UiBackend["signIn"]>[0]): Promise<void> {
    if (!this.deps.extensions.manifestOf(request.extensionId))
      throw new Error(`no loaded extension ${request.extensionId}`);
    const target = { extensionId: request.extensionId, provider: request.provider };
    if (request.action === "connect") await this.deps.oauth.connect(target);
    else
      await this.deps.oauth.disconnect({
        ...target,
        ...(request.connection ? { connection: request.connection } : {}),
      });
    await this.refreshValues(request.extensionId);
    this.publishExtensions();
  }

  answerAgentFiles = (id: string, allow: boolean): boolean => this.deps.agentFiles?.answer(id, allow) ?? false;
  reviewInstall: UiBackend["reviewInstall"] = (path) => this.reviews.review(path);
  reviewAddress: UiBackend["reviewAddress"] = (address) => this.reviews.reviewAddress(address);

  async checkUpdate(extensionId: string): Promise<{ outcome: string; message: string }> {
    const outcome = await checkForUpdate(extensionId, {
      supportDir: this.deps.supportDir,
      env: process.env,
      ...(this.deps.ledger ? { ledger: this.deps.ledger } : {}),
    });
    await this.refreshManaged();
    this.publishExtensions();
    return { outcome: outcome.kind, message: updateMessage(outcome) };
  }

  catalog(): Promise<UiCatalog> {
    return catalogListing(this.deps.bundled, this.deps.supportDir);
  }

  catalogPackage = (name: string): Promise<string> => catalogPackage(this.deps.bundled, name);

  /** Reviews of installed extensions changed on disk, waiting for the person: what `accept` records. */
  private readonly acceptReviews = new Map<string, { id: string; reviewed: string }>();

  async reviewAccept(extensionId: string, staged = false): Promise<{ reviewId: string; summary: InstallSummary }> {
    if (staged) {
      if (!(await hasStaged(this.deps.supportDir, extensionId)))
        throw new Error(`no update of ${extensionId} is staged (it was accepted or dropped): check for updates again`);
      // The staged package, reviewed as any update: every check runs again; Update installs it.
      return this.reviews.reviewFile(stagedPath(this.deps.supportDir, extensionId));
    }
    const review = await this.deps.manager.review(extensionId);
    const reviewId = randomBytes(16).toString("base64url");
    // One open review per extension: the newest replaces an older one.
    for (const [key, open] of this.acceptReviews) if (open.id === extensionId) this.acceptReviews.delete(key);
    this.acceptReviews.set(reviewId, { id: extensionId, reviewed: review.reviewed });
    return { reviewId, summary: review.summary };
  }

  decideInstall: UiBackend["decideInstall"] = async (reviewId, accept) => {
    const open = this.acceptReviews.get(reviewId);
    if (!open) {
      const decided = await this.reviews.decide(reviewId, accept);
      // A staged update installed, an address now remembered: Settings shows it at once.
      await this.refreshManaged();
      this.publishExtensions();
      return decided;
    }
    this.acceptReviews.delete(reviewId);
    if (accept) await this.deps.manager.accept(open.id, open.reviewed);
    await this.refreshManaged();
    this.publishExtensions();
    return { installed: accept, id: open.id };
  };

  /** Declines open install reviews. */
  dispose(): Promise<void> {
    this.stopListening();
    clearTimeout(this.refreshTimer);
    clearTimeout(this.publishTimer);
    return this.reviews.dispose();
  }

  async saveSettings(change: unknown) {
    const settings = await this.deps.settings.change(change);
    this.deps.publish({ type: "settings", settings });
    return settings;
  }
}
