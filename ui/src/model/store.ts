/**
 * The page's state: a plain store re-rendered on each event (UI.md). Blips by id in their panel
 * order, the extensions and settings Settings shows, pressed buttons, dismissed rows, the last
 * action problem per blip and the pages extensions asked to open.
 */
import type { SignInPage } from "@svc/api";
import type { AppSettings, Snapshot, UiAgentFilesRequest, UiBlip, UiEvent, UiExtension } from "../wire.js";
import { DismissedItems } from "./dismissed.js";
import { orderBlips } from "./order.js";
import { PressedButtons } from "./pressed.js";

/** A page an extension asked to open: shown as a line; opened only when the person clicks it. */
export interface OpenRequest {
  extensionId?: string;
  url: string;
  /** Set when the page is a sign-in: shown with its sentence and one button. */
  signIn?: SignInPage;
}

export const OPEN_REQUESTS_MAX = 3;

export class Store {
  readonly blips = new Map<string, UiBlip>();
  private readonly arrival = new Map<string, number>();
  private arrivals = 0;
  /** Blip id → when it last changed, as a count of updates (the ears' "most recently changed"). */
  private readonly changes = new Map<string, number>();
  private changeCount = 0;
  extensions: UiExtension[] = [];
  settings: AppSettings | undefined;
  paused = false;
  /** On battery: the host's schedules are stretched (said in Settings). */
  onBattery = false;
  secretsAvailable = true;
  /** Set once the first snapshot arrived. */
  ready = false;
  readonly pressed = new PressedButtons();
  readonly dismissed = new DismissedItems();
  /** Blip id → why its last action failed. */
  readonly actionProblems = new Map<string, string>();
  openRequests: OpenRequest[] = [];
  /** AI agents' file requests waiting for the person's Allow or Deny (the host's list). */
  agentFiles: UiAgentFilesRequest[] = [];

  private put(blip: UiBlip): void {
    if (!this.arrival.has(blip.id)) this.arrival.set(blip.id, this.arrivals++);
    if (this.blips.get(blip.id)?.seq !== blip.seq) this.changes.set(blip.id, ++this.changeCount);
    this.blips.set(blip.id, blip);
    this.dismissed.blipUpdated(blip.id, blip.seq);
  }

  private drop(id: string): void {
    this.blips.delete(id);
    this.arrival.delete(id);
    this.changes.delete(id);
    this.dismissed.forget(id);
    this.actionProblems.delete(id);
  }

  load(snapshot: Snapshot): void {
    for (const id of [...this.blips.keys()]) if (!snapshot.blips.some((blip) => blip.id === id)) this.drop(id);
    for (const blip of snapshot.blips) this.put(blip);
    this.extensions = snapshot.extensions;
    this.settings = snapshot.settings;
    this.paused = snapshot.paused;
    this.onBattery = snapshot.onBattery === true;
    this.secretsAvailable = snapshot.secretsAvailable;
    this.agentFiles = snapshot.agentFiles ?? [];
    this.ready = true;
  }

  /** Applies one feed event; `notify` is the caller's (it has a timer). */
  apply(event: UiEvent): void {
    switch (event.type) {
      case "snapshot":
        return this.load(event.snapshot);
      case "blip":
        if (event.change === "remove" || !event.blip) return this.drop(event.id);
        return this.put(event.blip);
      case "extensions":
        this.extensions = event.extensions;
        return;
      case "settings":
        this.settings = event.settings;
        return;
      case "paused":
        this.paused = event.paused;
        return;
      case "power":
        this.onBattery = event.onBattery;
        return;
      case "openURL":
        this.openRequests = [
          ...this.openRequests,
          {
            url: event.url,
            ...(event.extensionId ? { extensionId: event.extensionId } : {}),
            ...(event.signIn ? { signIn: event.signIn } : {}),
          },
        ].slice(-OPEN_REQUESTS_MAX);
        return;
      case "agentFiles":
        this.agentFiles = event.waiting;
        return;
      case "notify":
        return;
    }
  }

  /** The panel's blips in order (extension blips first, pushed ones at the end). */
  ordered(): UiBlip[] {
    return orderBlips(this.blips.values(), this.arrival);
  }

  /** How recently a blip changed: higher is more recent, 0 for one not here. */
  changed(id: string): number {
    return this.changes.get(id) ?? 0;
  }

  extension(id: string): UiExtension | undefined {
    return this.extensions.find((ext) => ext.id === id);
  }
}
