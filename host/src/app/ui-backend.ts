/**
 * The host as the UI server sees it: the snapshot a new page starts from, the host's events
 * mapped to the feed's (`UiEvent`), and the commands a page may send. Per extension it remembers
 * what Settings shows (last run, last problem, option values: passwords only as set or not).
 */
import type { Manifest } from "@svc/api";
import type { DiscoveredExtension } from "../discovery/index.js";
import type { HostEvent } from "../display/index.js";
import { reachOf } from "../install/index.js";
import type { PreferenceStore } from "../preferences/index.js";
import type { BlipStore, StoredBlip } from "../store/index.js";
import { InstallReviews } from "../ui-server/index.js";
import type { AppSettingsFile, UiBackend, UiBlip, UiEvent, UiExtension, UiPreference } from "../ui-server/index.js";
import type { ExtensionSet } from "./extension-set.js";
import type { PageTools } from "../tools/index.js";

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
  /** The tools tray's list and runs. */
  tools?: PageTools;
}

/** A stored blip as the page draws it. */
export function uiBlip(stored: StoredBlip): UiBlip {
  return { ...stored.payload, id: stored.id, seq: stored.seq, ended: stored.ended !== undefined, source: stored.source.kind === "webhook" ? "push" : "extension" };
}

function preferenceOf(preference: NonNullable<Manifest["svc"]["preferences"]>[number], values: Record<string, unknown>): UiPreference {
  const type = preference.type === "textfield" && preference.multiline ? "multiline" : preference.type;
  const stored = values[preference.name];
  const value = preference.type === "password"
    ? { set: typeof stored === "string" && stored.length > 0 }
    : stored ?? ("default" in preference ? preference.default : undefined) ?? null;
  return {
    name: preference.name,
    type,
    title: preference.title,
    required: preference.required === true,
    ...(preference.description === undefined ? {} : { description: preference.description }),
    ...(preference.placeholder === undefined ? {} : { placeholder: preference.placeholder }),
    ...(preference.blips === undefined ? {} : { blips: preference.blips }),
    ...(preference.type === "dropdown" ? { options: preference.data.map((choice) => ({ value: choice.value, title: choice.title })) } : {}),
    value,
  };
}

export class HostUiBackend implements UiBackend {
  private readonly lastRun = new Map<string, UiExtension["lastRun"]>();
  private readonly lastError = new Map<string, string>();
  private readonly values = new Map<string, Record<string, unknown>>();
  private paused = false;
  private readonly reviews: InstallReviews;

  get tools(): PageTools | undefined {
    return this.deps.tools;
  }

  constructor(private readonly deps: UiBackendDeps) {
    this.reviews = new InstallReviews(deps.supportDir);
  }

  snapshot() {
    return {
      blips: this.deps.store.list().map(uiBlip),
      extensions: this.extensionList(),
      settings: this.deps.settings.current,
      paused: this.paused,
      secretsAvailable: this.deps.secretsAvailable,
    };
  }

  private describe(ext: DiscoveredExtension, status: UiExtension["status"]): UiExtension {
    const manifest = ext.manifest;
    const problems = [ext.error, ...(ext.oauthProblems ?? []), ...ext.toolErrors].filter((p): p is string => Boolean(p));
    const error = problems.length ? problems.join("; ") : this.lastError.get(ext.id);
    const lastRun = this.lastRun.get(ext.id);
    return {
      id: ext.id,
      title: manifest?.svc.title ?? ext.id,
      source: ext.source,
      status,
      ...(manifest ? { version: manifest.version } : {}),
      ...(manifest?.svc.description ? { description: manifest.svc.description } : {}),
      ...(error ? { error } : {}),
      ...(lastRun ? { lastRun } : {}),
      reach: manifest ? reachOf(manifest).map((item) => ({ text: item.text, ...(item.risk ? { risk: item.risk } : {}) })) : [],
      preferences: (manifest?.svc.preferences ?? []).map((p) => preferenceOf(p, this.values.get(ext.id) ?? {})),
      tools: ext.tools.map((tool) => tool.id),
    };
  }

  private extensionList(): UiExtension[] {
    const { active, broken, overridden } = this.deps.extensions.current;
    return [
      ...active.map((ext) => this.describe(ext, "loaded")),
      ...broken.map((ext) => this.describe(ext, "broken")),
      ...overridden.map((ext) => this.describe(ext, "overridden")),
    ];
  }

  private async refreshValues(id: string): Promise<void> {
    const manifest = this.deps.extensions.manifestOf(id);
    if (!manifest) return;
    try {
      this.values.set(id, await this.deps.preferences.values(id, manifest));
    } catch {
      // The extension's own log line says why; Settings shows the defaults meanwhile.
    }
  }

  private publishExtensions(): void {
    this.deps.publish({ type: "extensions", extensions: this.extensionList() });
  }

  /** Maps one host event to what the page needs. */
  observe(event: HostEvent): void {
    const { publish } = this.deps;
    switch (event.type) {
      case "blip": {
        const stored = this.deps.store.get(event.id);
        publish({ type: "blip", change: event.change, id: event.id, ...(stored && event.change !== "remove" ? { blip: uiBlip(stored) } : {}) });
        return;
      }
      case "notify":
        return publish({ type: "notify", title: event.title, ...(event.extensionId ? { extensionId: event.extensionId } : {}), ...(event.body === undefined ? {} : { body: event.body }) });
      case "openURL":
        return publish({ type: "openURL", url: event.url, ...(event.extensionId ? { extensionId: event.extensionId } : {}) });
      case "paused":
      case "resumed":
        this.paused = event.type === "paused";
        return publish({ type: "paused", paused: this.paused });
      case "run.end":
        this.lastRun.set(event.id, { result: event.result, at: event.endedAt, ...(event.error ? { error: event.error } : {}) });
        if (event.error) this.lastError.set(event.id, event.error);
        return this.publishExtensions();
      case "extension.error":
        this.lastError.set(event.id, event.error);
        return this.publishExtensions();
      case "status":
        if (event.error) this.lastError.set(event.extensionId, event.error);
        return this.publishExtensions();
      case "extension.loaded":
      case "preference":
        void this.refreshValues(event.id).then(() => this.publishExtensions());
        return;
      case "extensions":
      case "extension.unloaded":
      case "extension.tools":
        return this.publishExtensions();
      default:
    }
  }

  action: UiBackend["action"] = (press) => this.deps.action(press);
  setPreference: UiBackend["setPreference"] = (id, name, value) => this.deps.setPreference(id, name, value);
  runNow: UiBackend["runNow"] = (id) => this.deps.runNow(id);

  reviewInstall: UiBackend["reviewInstall"] = (path) => this.reviews.review(path);
  decideInstall: UiBackend["decideInstall"] = (reviewId, accept) => this.reviews.decide(reviewId, accept);

  /** Declines open install reviews. */
  close(): Promise<void> {
    return this.reviews.close();
  }

  async saveSettings(change: unknown) {
    const settings = await this.deps.settings.change(change);
    this.deps.publish({ type: "settings", settings });
    return settings;
  }
}
