/**
 * `<svc-app>`: the notch. Collapsed (the blip that matters most in the two ears beside the notch,
 * `views/ears.ts`), popped (that blip in full for a few seconds after it changed state, when its
 * extension may pop, `model/pop.ts`) or expanded (the panel with tabs: Blips, Tools, Settings;
 * more tabs register in `TABS`). Renders into light DOM from the store on each event. Keyboard:
 * the notch button opens, ↑/↓ (or j/k) move between blips, Tab reaches every button, Esc closes.
 */
import { html, LitElement, nothing, type TemplateResult } from "lit";
import { signInPrompt } from "@svc/api";
import { Api, ApiError } from "./api.js";
import { followFeed } from "./sse.js";
import { SvcTicker } from "./views/ticker.js";
import { shown, shownLines, safeHref, CAPS } from "./format/text.js";
import { NotifyQueue, type NotifyLine } from "./model/notify.js";
import { mattersMost } from "./model/ears.js";
import { mayPop, PopGate, POP_FOR_MS } from "./model/pop.js";
import { earsButton } from "./views/ears.js";
import { Store } from "./model/store.js";
import { giveFiles, shellHooks } from "./shell.js";
import type { AppSettings, UiBlip, UiCatalog, UiEvent, UiGrantQuestion } from "./wire.js";

type SignInCode = Extract<UiEvent, { type: "sign-in.code" }>;
import { blipView, type BlipContext } from "./views/blip.js";
import { preferenceField, settingsView, type SettingsContext } from "./views/settings.js";
import { installView, type InstallSummaryView } from "./views/install.js";
import { catalogView } from "./views/catalog.js";
import { agentFilesView } from "./views/agent-files.js";
import { speakerTag } from "./views/speaker.js";
import { AllowArming } from "./model/allow-arming.js";
import { blipSpeaker, lineSpeaker } from "./model/speaker.js";
import { ToolsTray } from "./tools/tray.js";

/** A tab of the expanded panel. The tools tray adds itself here. */
export interface Tab {
  id: string;
  title: string;
  render(app: SvcApp): TemplateResult;
}

export const TABS: Tab[] = [
  { id: "blips", title: "Blips", render: (app) => app.renderPanel() },
  { id: "tools", title: "Tools", render: (app) => app.tools.render(app.locale, Date.now()) },
  { id: "settings", title: "Settings", render: (app) => app.renderSettings() },
];

/** What ↑/↓ (j/k) move between, per tab: blips, the search field and tools, extension rows. */
const ROVING: Record<string, string> = {
  blips: ".panel .blip",
  tools: ".tool-search, .tool-item",
  settings: ".ext-open",
};

export class SvcApp extends LitElement {
  static override properties = { expanded: { type: Boolean, reflect: true } };
  expanded = false;
  readonly store = new Store();
  private api: Api | undefined;
  private feed: { stop(): void; reconnect(): void } | undefined;
  private problem: string | undefined;
  private connected = false;
  /** The host stopped: this page's session cannot come back. */
  private gone = false;
  private tab = "blips";
  private inputOpen: string | undefined;
  private notifyLine: NotifyLine | undefined;
  private readonly fieldStatus = new Map<string, { ok: boolean; text: string }>();
  private install: { review?: { reviewId: string; summary: InstallSummaryView }; busy: boolean; message?: string } = {
    busy: false,
  };
  private readonly notify = new NotifyQueue(
    (line) => {
      this.notifyLine = line;
      this.requestUpdate();
    },
    {
      set: (callback, ms) => setTimeout(callback, ms),
      clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
  );
  readonly locale = navigator.language || "en";
  /** The tools tray (ui/src/tools). */
  readonly tools = new ToolsTray(
    () => this.api,
    () => this.requestUpdate(),
    () => this.shell,
  );
  private readonly shell = shellHooks();
  private staleTimer: ReturnType<typeof setInterval> | undefined;
  private hoverTimer: ReturnType<typeof setTimeout> | undefined;
  private openedByHover = false;
  /** The blip the notch popped open for (collapsed otherwise), and when that ends. */
  private popped: string | undefined;
  private popTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly popGate = new PopGate();
  private confirmingUninstall: string | undefined;
  /** Settings → Add extensions: loaded when Settings is first drawn, again after each install. */
  private catalog: { value?: UiCatalog; problem?: string; loading: boolean } = { loading: false };
  /** Settings' extension rows open to their details. */
  private readonly openRows = new Set<string>();
  /** A device-flow sign-in's code on show, and whether it is on the clipboard. */
  private signInCode: SignInCode | undefined;
  private codeCopied = false;
  /** A server address the host asked the person to allow; `value` is sent again with `allowed`. */
  private pendingGrant: { extensionId: string; name: string; value: unknown; grant: UiGrantQuestion } | undefined;
  /** Agents' file requests whose answer is on its way, and why the last one failed. */
  private readonly answeringAgentFiles = new Set<string>();
  private agentFilesProblem: string | undefined;
  /** Agents' requests just shown or moved take no Allow yet (click-jacking by swapping requests). */
  private readonly allowArming = new AllowArming(() => performance.now());
  private armingTimer: ReturnType<typeof setTimeout> | undefined;

  /** Settings say "open on hover": the pointer resting on the notch for the delay opens it. */
  private readonly onPointerEnter = (): void => {
    const settings = this.store.settings;
    // The pointer on a popped notch keeps it: it becomes the panel, closing again on leave.
    if (this.popped && !this.expanded) {
      this.setExpanded(true, false);
      this.openedByHover = true;
      return;
    }
    if (this.expanded || settings?.openOn !== "hover") return;
    clearTimeout(this.hoverTimer);
    this.hoverTimer = setTimeout(() => {
      this.setExpanded(true, false);
      this.openedByHover = true;
    }, settings.hoverDelayMs);
  };

  /** Leaving cancels a pending hover; a panel the hover opened closes again. */
  private readonly onPointerLeave = (): void => {
    clearTimeout(this.hoverTimer);
    if (this.openedByHover) this.setExpanded(false, false);
  };

  /** Light DOM: one stylesheet themes everything. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.expanded = new URLSearchParams(location.search).get("view") !== "compact";
    document.addEventListener("keydown", this.onKey);
    this.shell.onCommand?.((command) => {
      this.tab = command === "settings" ? "settings" : "blips";
      this.setExpanded(true);
    });
    void this.start();
    // Stale marks and relative dates move on slowly: a quiet redraw every 30 s is enough.
    this.staleTimer = setInterval(() => this.requestUpdate(), 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("keydown", this.onKey);
    this.feed?.stop();
    this.notify.dispose();
    clearTimeout(this.armingTimer);
    clearInterval(this.staleTimer);
  }

  private async start(): Promise<void> {
    performance.mark("svc-start");
    try {
      this.api = await Api.connect(location, history, sessionStorage);
      performance.mark("svc-session");
    } catch (error) {
      this.problem = (error as Error).message;
      return this.requestUpdate();
    }
    const api = this.api;
    this.feed = followFeed({
      url: "/api/events",
      headers: () => api.headers(),
      onMessage: (message) => {
        let event: UiEvent;
        try {
          event = JSON.parse(message.data) as UiEvent;
        } catch {
          return;
        }
        this.receive(event);
      },
      onState: (connected) => {
        this.connected = connected;
        this.requestUpdate();
      },
      onUnauthorized: (message) => {
        sessionStorage.removeItem("svc.session");
        this.problem = message;
        this.requestUpdate();
      },
      onGone: () => {
        // Nothing here is live any more: stop every clock, grey the blips, say what to do.
        this.gone = true;
        SvcTicker.freezeAll();
        clearInterval(this.staleTimer);
        this.requestUpdate();
      },
    });
    (window as { svcFeed?: unknown }).svcFeed = this.feed;
  }

  /** One feed event: the store changes, then one redraw. */
  receive(event: UiEvent): void {
    if (event.type === "snapshot" && !this.store.ready) performance.mark("svc-snapshot");
    const seen = new Set(this.store.agentFiles.map((r) => r.id));
    const before = event.type === "blip" ? this.store.blips.get(event.id) : undefined;
    this.store.apply(event);
    if (event.type === "blip" && event.blip) this.considerPop(before, event.blip);
    this.armAgentFiles();
    // An agent waits for the person: open the notch (without taking the focus) so they see it.
    if (!this.expanded && this.store.agentFiles.some((r) => !seen.has(r.id))) this.setExpanded(true, false);
    // A load or reload may change what tools there are (the runtime's report replaces dist/tools.json's).
    if (event.type === "extensions" || event.type === "snapshot") void this.tools.refresh();
    if (event.type === "notify") this.notify.push(event);
    if (event.type === "sign-in.code") this.showSignInCode(event);
    // Connected, or why not: the code is done with.
    if (event.type === "notify" && event.extensionId === this.signInCode?.extensionId) this.signInCode = undefined;
    this.requestUpdate();
    if (event.type === "blip")
      this.dispatchEvent(new CustomEvent("svc-blip", { detail: { id: event.id, seq: event.blip?.seq } }));
  }

  /** A blip changed state: pop the collapsed notch open for it, if its extension may and the gate allows. */
  private considerPop(before: UiBlip | undefined, blip: UiBlip): void {
    if (this.expanded || blip.source !== "extension" || !blip.extensionId) return;
    const ext = this.store.extension(blip.extensionId);
    const allowed = ext !== undefined && mayPop(this.store.settings?.mayPop, ext);
    if (
      !this.popGate.consider({
        hadBlip: before !== undefined,
        previousState: before?.state,
        state: blip.state,
        allowed,
        now: Date.now(),
      })
    )
      return;
    this.popped = blip.id;
    void Promise.resolve(this.shell.setExpanded?.(true)).catch(() => {});
    clearTimeout(this.popTimer);
    this.popTimer = setTimeout(() => this.endPop(), POP_FOR_MS);
  }

  /** The pop is over: back to the ears (unless the person opened the panel meanwhile). */
  private endPop(): void {
    clearTimeout(this.popTimer);
    if (!this.popped) return;
    this.popped = undefined;
    if (!this.expanded) void Promise.resolve(this.shell.setExpanded?.(false)).catch(() => {});
    this.requestUpdate();
  }

  /** `focus`: move the focus into the panel (click and keyboard; never on hover). */
  private setExpanded(expanded: boolean, focus = true): void {
    clearTimeout(this.hoverTimer);
    clearTimeout(this.popTimer);
    this.popped = undefined;
    this.openedByHover = false;
    this.expanded = expanded;
    // The shell's answers are not awaited: the page never waits for its window.
    void Promise.resolve(this.shell.setExpanded?.(expanded)).catch(() => {});
    // The clipboard is read only now, when the notch opens, for the tools tray's suggestions.
    if (expanded && navigator.clipboard?.readText)
      void this.tools.noticeClipboard(() => navigator.clipboard.readText());
    void Promise.resolve(this.shell.setClickThrough?.(!expanded)).catch(() => {});
    if (!focus) return;
    void this.updateComplete.then(() => {
      const target = expanded
        ? (this.querySelector<HTMLElement>(".panel .blip") ?? this.querySelector<HTMLElement>(".tabs button"))
        : this.querySelector<HTMLElement>(".notch-button");
      target?.focus();
    });
  }

  private readonly onKey = (event: KeyboardEvent): void => {
    if (event.key === "Escape") {
      if (this.inputOpen) {
        this.inputOpen = undefined;
        return this.requestUpdate();
      }
      // An open tool goes back to the list first, the focus on that tool's row.
      if (this.expanded && this.tab === "tools" && this.tools.openId) {
        const id = this.tools.openId;
        this.tools.close();
        void this.updateComplete.then(() =>
          this.querySelector<HTMLElement>(`.tool-item[data-tool="${CSS.escape(id)}"]`)?.focus(),
        );
        return;
      }
      if (this.expanded) this.setExpanded(false);
      else if (this.popped) this.endPop();
      return;
    }
    const target = event.target as HTMLElement | null;
    const inField = target?.closest("input, textarea, select");
    // ↓ from the tools' search field goes into the list; other fields keep their arrow keys.
    if (inField && !(target?.matches(".tool-search") && event.key === "ArrowDown")) return;
    const down = event.key === "ArrowDown" || event.key === "j";
    const up = event.key === "ArrowUp" || event.key === "k";
    if (!down && !up) return;
    const stops = [...this.querySelectorAll<HTMLElement>(this.expanded ? (ROVING[this.tab] ?? ".blip") : ".blip")];
    if (stops.length === 0) return;
    const current = stops.findIndex((el) => el.contains(document.activeElement));
    const next = current < 0 ? 0 : Math.min(stops.length - 1, Math.max(0, current + (down ? 1 : -1)));
    stops[next].focus();
    event.preventDefault();
  };

  private async press(
    blip: UiBlip,
    action: { id: string; dismisses: boolean; url?: string },
    itemId?: string,
    input?: string,
  ): Promise<void> {
    const press = { blipId: blip.id, actionId: action.id, ...(itemId === undefined ? {} : { itemId }) };
    if (!this.api || !this.store.pressed.press(press)) return;
    this.inputOpen = undefined;
    this.store.actionProblems.delete(blip.id);
    if (action.dismisses && itemId !== undefined) this.store.dismissed.dismiss(blip.id, itemId, blip.seq);
    this.requestUpdate();
    try {
      const answer = await this.api.post<{ emitted: Record<string, number> }>("actions", {
        ...press,
        ...(input === undefined ? {} : { input }),
      });
      if (action.dismisses && itemId !== undefined) {
        this.store.dismissed.answered(blip.id, itemId, answer.emitted ?? {});
        const now = this.store.blips.get(blip.id);
        if (now) this.store.dismissed.blipUpdated(blip.id, now.seq);
      }
      if (action.url) window.open(action.url, "_blank", "noopener,noreferrer");
    } catch (error) {
      if (itemId !== undefined) this.store.dismissed.failed(blip.id, itemId);
      this.store.actionProblems.set(blip.id, (error as Error).message);
    } finally {
      this.store.pressed.release(press);
      this.requestUpdate();
    }
  }

  private context(now: number): BlipContext {
    const store = this.store;
    return {
      locale: this.locale,
      now,
      speakerOf: (blip) => blipSpeaker(blip, store.extensions),
      isPressed: (press) => store.pressed.isPressed(press),
      isDismissed: (blipId, itemId) => store.dismissed.isDismissed(blipId, itemId),
      problemOf: (blipId) => store.actionProblems.get(blipId),
      lastRunFailed: (blip) => {
        const ext = store.extensions.find((e) => blip.id.startsWith(`${e.id}/`));
        return ext?.lastRun !== undefined && ext.lastRun.result !== "ok";
      },
      onAction: (blip, action, itemId, input) => void this.press(blip, action, itemId, input),
      inputOpen: this.inputOpen,
      onInput: (key) => {
        this.inputOpen = key;
        this.requestUpdate();
      },
      blipOptions: (blip) => {
        if (blip.source !== "extension") return nothing;
        const slash = blip.id.indexOf("/");
        const ext = store.extension(blip.id.slice(0, slash));
        const key = blip.id.slice(slash + 1);
        const options = ext?.preferences.filter((p) => p.blips?.includes(key)) ?? [];
        if (!ext || options.length === 0) return nothing;
        const settings = this.settingsContext();
        return html`<details class="blip-options"><summary>Options</summary>${options.map((p) => preferenceField(ext, p, settings, "blip"))}</details>`;
      },
    };
  }

  renderPanel(): TemplateResult {
    const blips = this.store.ordered();
    const ctx = this.context(Date.now());
    return html`
      ${
        blips.length === 0
          ? html`<p class="empty">${this.store.ready ? "Nothing to show yet. Blips from your extensions appear here." : "Connecting…"}</p>`
          : html`<div class="blips" role="list" aria-label="blips">${blips.map((blip) => html`<div role="listitem">${blipView(blip, ctx)}</div>`)}</div>`
      }`;
  }

  /** Pages extensions asked to open: a line each, opened only by the person's click (http/https only). */
  private renderOpenRequests(): TemplateResult | typeof nothing {
    const requests = this.store.openRequests;
    if (requests.length === 0) return nothing;
    return html`<ul class="open-requests" aria-label="pages extensions want to open">${requests.map((r) => {
      const href = safeHref(r.url);
      const speaker = speakerTag(lineSpeaker(r.extensionId, this.store.extensions));
      // A sign-in says what it is for and where the browser goes, with the one button that goes there.
      if (r.signIn && href)
        return html`<li class="signin-request">${speaker} <span class="prompt">${shown(signInPrompt(r.signIn, r.url), CAPS.url)}</span>
          <a class="button primary" href=${href} target="_blank" rel="noopener noreferrer" @click=${() => this.dropRequest(r.url)}>Open</a></li>`;
      return html`<li>${speaker} wants to open <code>${shown(r.url, CAPS.url)}</code>
          ${href ? html`<a class="button primary" href=${href} target="_blank" rel="noopener noreferrer" @click=${() => this.dropRequest(r.url)}>Open</a>` : html`<span class="problem">only http and https pages open</span>`}
          <button type="button" class="button" @click=${() => this.dropRequest(r.url)}>Dismiss</button></li>`;
    })}</ul>`;
  }

  /** A device-flow sign-in's code: shown until dismissed or expired, and put on the clipboard when the page may. */
  private showSignInCode(code: SignInCode): void {
    this.signInCode = code;
    this.codeCopied = false;
    if (!this.expanded) this.setExpanded(true, false);
    void this.copyCode(code.userCode);
  }

  private async copyCode(userCode: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(userCode);
      this.codeCopied = true;
    } catch {
      // Without a click first, a page may not write the clipboard: Copy is there for that.
    }
    this.requestUpdate();
  }

  private renderSignInCode(): TemplateResult | typeof nothing {
    const code = this.signInCode;
    if (!code || code.expiresAt <= Date.now()) return nothing;
    const href = safeHref(code.verificationUri);
    return html`<section class="sign-in-code" role="region" aria-label="sign-in code">
      <p>${speakerTag(lineSpeaker(code.extensionId, this.store.extensions))} To sign in to ${shown(code.title, CAPS.label)}, open</p>
      <p>${href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${shown(code.verificationUri, CAPS.url)}</a>` : html`<code>${shown(code.verificationUri, CAPS.url)}</code>`}</p>
      <p>and type the code</p>
      <p><code class="user-code">${shown(code.userCode, CAPS.label)}</code>
        <button type="button" class="button" @click=${() => void this.copyCode(code.userCode)}>${this.codeCopied ? "Copied" : "Copy"}</button>
        <button type="button" class="button" @click=${() => {
          this.signInCode = undefined;
          this.requestUpdate();
        }}>Dismiss</button></p>
    </section>`;
  }

  private dropRequest(url: string): void {
    this.store.openRequests = this.store.openRequests.filter((r) => r.url !== url);
    this.requestUpdate();
  }

  private async saveSettings(change: Partial<AppSettings>): Promise<void> {
    try {
      const answer = await this.api!.post<{ settings: AppSettings }>("settings", change);
      this.store.settings = answer.settings;
      this.fieldStatus.set("settings", { ok: true, text: "saved" });
    } catch (error) {
      this.fieldStatus.set("settings", { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private async savePreference(extensionId: string, name: string, value: unknown, allowed?: string): Promise<void> {
    const key = `${extensionId}/${name}`;
    this.pendingGrant = undefined;
    try {
      await this.api!.post("preferences", { extensionId, name, value, ...(allowed === undefined ? {} : { allowed }) });
      this.fieldStatus.set(key, { ok: true, text: allowed ? `saved; it may connect to ${allowed}` : "saved" });
    } catch (error) {
      const grant = error instanceof ApiError && error.status === 409 ? error.body.grant : undefined;
      if (grant) {
        // A server address: set only once the person allows it (settings.ts asks).
        this.pendingGrant = { extensionId, name, value, grant: grant as UiGrantQuestion };
        this.fieldStatus.delete(key);
      } else this.fieldStatus.set(key, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private answerGrant(allow: boolean): void {
    const pending = this.pendingGrant;
    if (!pending) return;
    if (allow) return void this.savePreference(pending.extensionId, pending.name, pending.value, pending.grant.origin);
    this.pendingGrant = undefined;
    this.fieldStatus.set(`${pending.extensionId}/${pending.name}`, {
      ok: false,
      text: "not set: you did not allow it",
    });
    this.requestUpdate();
  }

  private async runNow(extensionId: string): Promise<void> {
    try {
      await this.api!.post("run", { extensionId });
      this.fieldStatus.set(`${extensionId}/run`, { ok: true, text: "started a run" });
    } catch (error) {
      this.fieldStatus.set(`${extensionId}/run`, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private async signIn(
    extensionId: string,
    provider: string,
    action: "connect" | "disconnect",
    connection?: string,
  ): Promise<void> {
    const key = `${extensionId}/signin/${provider}`;
    try {
      await this.api!.post("signins", { extensionId, provider, action, ...(connection ? { connection } : {}) });
      this.fieldStatus.set(key, {
        ok: true,
        text: action === "connect" ? "the sign-in page is open: finish there" : "disconnected",
      });
    } catch (error) {
      this.fieldStatus.set(key, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  /**
   * A `.svc` given through the desktop shell (dropped on the notch or the install area, or chosen): reviewed by handle.
   */
  private async reviewGiven(files: readonly File[]): Promise<void> {
    const file = files.find((f) => f.name.toLowerCase().endsWith(".svc"));
    if (!file) {
      const names = files.map((f) => f.name).join(", ");
      this.install = {
        busy: false,
        message: `only .svc packages can be installed (svckit pack makes them)${names ? `; got ${names}` : ""}`,
      };
      return this.requestUpdate();
    }
    this.install = { busy: true };
    this.requestUpdate();
    try {
      const [given] = await giveFiles(this.shell, [file]);
      await this.reviewInstall({ handle: given!.handle });
    } catch (error) {
      this.install = { busy: false, message: (error as Error).message };
      this.requestUpdate();
    }
  }

  /** A `.svc` dropped anywhere else on the notch opens Settings with its review. */
  private readonly onNotchDrop = (event: DragEvent): void => {
    if (!this.shell.registerDroppedFile) return;
    event.preventDefault();
    const files = [...(event.dataTransfer?.files ?? [])];
    if (!files.some((f) => f.name.toLowerCase().endsWith(".svc"))) return;
    this.tab = "settings";
    this.setExpanded(true, false);
    void this.reviewGiven(files);
  };

  /**
   * A `.svc` to install (by path, https address, dropped file or catalog name), or an installed
   * extension changed on disk, or its staged update, to accept.
   */
  private async reviewInstall(
    request:
      | { path: string }
      | { address: string }
      | { handle: string }
      | { catalog: string }
      | { extensionId: string; staged?: boolean },
  ): Promise<void> {
    this.install = { busy: true };
    this.requestUpdate();
    try {
      const route = "extensionId" in request ? "extensions/review" : "install/review";
      const answer = await this.api!.post<{ reviewId: string; summary: InstallSummaryView }>(route, request);
      this.install = { busy: false, review: { reviewId: answer.reviewId, summary: answer.summary } };
      // The install area sits under the rows: bring the review into view, and the keyboard's focus
      // to it, once it is drawn (the update is asked for first, so updateComplete waits for it).
      this.requestUpdate();
      void this.updateComplete.then(() => {
        this.querySelector(".install")?.scrollIntoView({ block: "nearest" });
        this.querySelector<HTMLElement>(".install .review")?.focus();
      });
    } catch (error) {
      this.install = { busy: false, message: (error as Error).message };
    }
    this.requestUpdate();
  }

  private async decideInstall(accept: boolean): Promise<void> {
    const review = this.install.review;
    if (!review) return;
    this.install = { ...this.install, busy: true };
    this.requestUpdate();
    try {
      const answer = await this.api!.post<{ installed: boolean }>("install/decide", {
        reviewId: review.reviewId,
        accept,
      });
      if (answer.installed) void this.loadCatalog();
      const title = shown(review.summary.title, CAPS.title);
      this.install = {
        busy: false,
        message: answer.installed
          ? `${review.summary.replaces ? "Updated" : "Installed"} ${title} ${shown(review.summary.version, 40)}.`
          : `Did not install ${title}.`,
      };
    } catch (error) {
      this.install = { busy: false, message: (error as Error).message };
    }
    this.requestUpdate();
  }

  /** The waiting requests as drawn now: each new or moved one starts its wait; redraw when the next arms. */
  private armAgentFiles(): void {
    this.allowArming.update(this.store.agentFiles.map((r) => r.id));
    clearTimeout(this.armingTimer);
    const ms = this.allowArming.nextArming();
    if (ms === undefined) return;
    this.armingTimer = setTimeout(() => {
      this.requestUpdate();
      this.armAgentFiles();
    }, ms);
  }

  /** The person's answer to an agent's file request. */
  private async answerAgentFiles(id: string, allow: boolean): Promise<void> {
    this.answeringAgentFiles.add(id);
    this.agentFilesProblem = undefined;
    this.requestUpdate();
    try {
      await this.api!.post("agent-files", { id, allow });
    } catch (error) {
      this.agentFilesProblem = (error as Error).message;
      // Over already (timed out, withdrawn): the host's list no longer has it either.
      this.store.agentFiles = this.store.agentFiles.filter((r) => r.id !== id);
      this.armAgentFiles();
    } finally {
      this.answeringAgentFiles.delete(id);
      this.requestUpdate();
    }
  }

  /** A tool's switch for AI agents, from Settings; saved at once. */
  private async setAgents(toolId: string, enabled: boolean): Promise<void> {
    const key = `${toolId}/agents`;
    try {
      await this.api!.post("tools/agents", { tool: toolId, enabled });
      const tool = this.tools.tools.find((t) => t.id === toolId);
      if (tool) tool.agents = enabled;
      this.fieldStatus.set(key, { ok: true, text: "saved" });
    } catch (error) {
      this.fieldStatus.set(key, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private settingsContext(): SettingsContext {
    return {
      locale: this.locale,
      now: Date.now(),
      settings: this.store.settings,
      extensions: this.store.extensions,
      secretsAvailable: this.store.secretsAvailable,
      onBattery: this.store.onBattery,
      status: this.fieldStatus,
      saveSettings: (change) => void this.saveSettings(change),
      savePreference: (id, name, value) => void this.savePreference(id, name, value),
      pendingGrant: this.pendingGrant,
      answerGrant: (allow) => this.answerGrant(allow),
      runNow: (id) => void this.runNow(id),
      signIn: (id, provider, action, connection) => void this.signIn(id, provider, action, connection),
      manage: (id, action) => void this.manage(id, action),
      reviewChanges: (id) => void this.reviewInstall({ extensionId: id }),
      reviewStaged: (id) => void this.reviewInstall({ extensionId: id, staged: true }),
      checkUpdates: (id) => void this.checkUpdates(id),
      toolsOf: (id) => this.tools.tools.filter((t) => t.extensionId === id),
      setAgents: (toolId, enabled) => void this.setAgents(toolId, enabled),
      confirmingUninstall: this.confirmingUninstall,
      askUninstall: (id) => {
        this.confirmingUninstall = id;
        this.requestUpdate();
      },
      isOpen: (id) => this.openRows.has(id),
      toggleRow: (id) => {
        if (!this.openRows.delete(id)) this.openRows.add(id);
        this.requestUpdate();
      },
    };
  }

  /** "Check for updates": the host fetches, verifies, and installs, stages or refuses; its sentence is shown. */
  private async checkUpdates(extensionId: string): Promise<void> {
    const key = `${extensionId}/update`;
    this.fieldStatus.set(key, { ok: true, text: "checking…" });
    this.requestUpdate();
    try {
      const answer = await this.api!.post<{ outcome: string; message: string }>("extensions/update", { extensionId });
      this.fieldStatus.set(key, { ok: answer.outcome !== "staged", text: answer.message });
    } catch (error) {
      this.fieldStatus.set(key, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private async manage(extensionId: string, action: "enable" | "disable" | "uninstall"): Promise<void> {
    const key = `${extensionId}/manage`;
    this.confirmingUninstall = undefined;
    try {
      await this.api!.post("extensions", { extensionId, action });
      this.fieldStatus.set(key, {
        ok: true,
        text: action === "uninstall" ? "removed" : action === "enable" ? "turned on" : "turned off",
      });
    } catch (error) {
      this.fieldStatus.set(key, { ok: false, text: (error as Error).message });
    }
    this.requestUpdate();
  }

  private async loadCatalog(): Promise<void> {
    this.catalog = { ...this.catalog, loading: true };
    try {
      this.catalog = { value: await this.api!.get<UiCatalog>("catalog"), loading: false };
    } catch (error) {
      this.catalog = { problem: `The catalog could not be read: ${(error as Error).message}`, loading: false };
    }
    this.requestUpdate();
  }

  renderSettings(): TemplateResult {
    if (!this.catalog.value && !this.catalog.problem && !this.catalog.loading && this.api) void this.loadCatalog();
    // The extensions' rows first, then svc's own settings, then adding one from the catalog, then installing another.
    return html`${settingsView(this.settingsContext())}${catalogView({
      catalog: this.catalog.value,
      problem: this.catalog.problem,
      busy: this.install.busy,
      onAdd: (name) => void this.reviewInstall({ catalog: name }),
    })}${installView({
      ...this.install,
      review: this.install.review,
      message: this.install.message,
      // An address is fetched by the host (https only); anything else is a file's path.
      onReview: (typed) => void this.reviewInstall(typed.includes("://") ? { address: typed } : { path: typed }),
      ...(this.shell.registerDroppedFile ? { onGive: (files: readonly File[]) => void this.reviewGiven(files) } : {}),
      onDecide: (accept) => void this.decideInstall(accept),
    })}`;
  }

  /** The notch button: the ears while collapsed; the panel's top edge (Close) while open. */
  private renderNotchButton(): TemplateResult {
    if (this.expanded)
      return html`<button type="button" class="notch-button" aria-expanded="true" aria-controls="panel" aria-label="Close svc"
        @click=${() => this.setExpanded(false)}><span class="notch-gap"><span class="close-mark" aria-hidden="true">⌃</span></span></button>`;
    const ctx = this.context(Date.now());
    const blip = mattersMost(this.store.ordered(), (id) => this.store.changed(id), ctx.now);
    return earsButton(blip, ctx, () => this.setExpanded(true));
  }

  /** A popped notch: the blip that changed, in full, under the ears; it never takes the focus. */
  private renderPop(): TemplateResult | typeof nothing {
    const blip = this.popped === undefined ? undefined : this.store.blips.get(this.popped);
    if (!blip || this.expanded) return nothing;
    return html`<div class="pop" role="status" aria-live="polite">${blipView(blip, this.context(Date.now()))}</div>`;
  }

  private reducedMotion(): string {
    const setting = this.store.settings?.reduceMotion ?? "system";
    return setting === "system" ? "" : setting;
  }

  override render(): TemplateResult {
    document.documentElement.dataset.reduceMotion = this.reducedMotion();
    const line = this.notifyLine;
    const tab = TABS.find((t) => t.id === this.tab) ?? TABS[0];
    const shape = this.expanded ? "expanded" : this.popped ? "collapsed popped" : "collapsed";
    return html`<main class="notch ${shape}${this.gone ? " gone" : ""}" @mouseenter=${this.onPointerEnter} @mouseleave=${this.onPointerLeave}
      @dragover=${(e: DragEvent) => this.shell.registerDroppedFile && e.preventDefault()} @drop=${this.onNotchDrop}>
      <h1 class="sr">svc</h1>
      <div class="bar">
        ${this.renderNotchButton()}
        ${this.store.paused ? html`<span class="mark">paused</span>` : nothing}
        ${
          this.gone
            ? html`<span class="mark gone-note" role="status">${this.shell.registerDroppedFile ? "svc stopped: starting it again…" : html`svc restarted: run <code>svc-host ui</code> again`}</span>`
            : this.connected || !this.store.ready
              ? nothing
              : html`<span class="mark" role="status">reconnecting…</span>`
        }
      </div>
      <!-- Agents' requests come first: nothing above them changes height (a notify line coming or
        going would move another request's Allow under the pointer). -->
      ${agentFilesView({ locale: this.locale, waiting: this.store.agentFiles, answering: this.answeringAgentFiles, problem: this.agentFilesProblem, waitLeft: (id) => this.allowArming.waitLeft(id), answer: (id, allow) => void this.answerAgentFiles(id, allow) })}
      <div class="notify" role="status" aria-live="polite" aria-atomic="true">${
        line
          ? html`<span class="notify-line">${speakerTag(lineSpeaker(line.extensionId, this.store.extensions))}<strong dir="auto">${shown(line.title, CAPS.title)}</strong>${line.body ? html` <span dir="auto">${shownLines(line.body, 300)}</span>` : nothing}
            <button type="button" class="button small" aria-label="Dismiss notification" @click=${() => this.notify.dismiss()}>✕</button></span>`
          : nothing
      }</div>
      ${this.renderSignInCode()}
      ${this.renderOpenRequests()}
      ${this.problem ? html`<p class="problem page-problem" role="alert">${shown(this.problem, CAPS.body)}</p>` : nothing}
      ${
        this.expanded
          ? html`<div id="panel" class="panel">
            <nav class="tabs" role="tablist" aria-label="svc">${TABS.map(
              (t) => html`<button type="button" role="tab" id=${`tab-${t.id}`} aria-controls="tabpanel"
              aria-selected=${t.id === tab.id ? "true" : "false"} tabindex=${t.id === tab.id ? "0" : "-1"} @click=${() => {
                this.tab = t.id;
                this.requestUpdate();
              }}
              @keydown=${(e: KeyboardEvent) => this.moveTab(e)}>${t.title}</button>`,
            )}</nav>
            <section id="tabpanel" role="tabpanel" aria-labelledby=${`tab-${tab.id}`}>${tab.render(this)}</section>
          </div>`
          : this.renderPop()
      }
    </main>`;
  }

  /** `data-ready` once the first snapshot is drawn (tests and the desktop shell wait for it). */
  protected override updated(): void {
    if (this.store.ready && !this.hasAttribute("data-ready")) performance.mark("svc-first-paint");
    this.toggleAttribute("data-ready", this.store.ready);
  }

  private moveTab(event: KeyboardEvent): void {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = TABS.findIndex((t) => t.id === this.tab);
    const next = TABS[(index + (event.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length];
    this.tab = next.id;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>(`#tab-${next.id}`)?.focus());
    event.preventDefault();
  }
}

if (!customElements.get("svc-app")) customElements.define("svc-app", SvcApp);
export { ApiError };
