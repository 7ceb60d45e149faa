/**
 * Settings: the app's own settings, working hours, then one row per extension (icon, title, a
 * short state, on/off) that opens to its facts, status, figures, last problem (a stack only
 * behind "details"), what it can reach in plain words, its options and whether it may pop the notch. Every change is saved at once
 * (a preference change makes the extension run with trigger `preferences`). Passwords are
 * write-only: the page only knows whether one is set.
 */
import { html, nothing } from "lit";
import { CAPS, shown, shownLines } from "../format/text.js";
import { formatRelative } from "../format/values.js";
import type { AppSettings, UiExtension, UiGrantQuestion, UiPreference } from "../wire.js";
import type { PageTool } from "../tools/tray.js";
import { agentSwitchesView } from "./agent-switches.js";
import { iconElement } from "../icons/index.js";
import { rowState, splitError } from "../model/ext-row.js";
import { mayPop } from "../model/pop.js";

export interface SettingsContext {
  locale: string;
  now: number;
  settings: AppSettings | undefined;
  extensions: UiExtension[];
  secretsAvailable: boolean;
  /** On battery: extensions update less often (the desktop shell told the host). */
  onBattery?: boolean;
  /** Field key → how its last change went. */
  status: ReadonlyMap<string, { ok: boolean; text: string }>;
  saveSettings(change: Partial<AppSettings>): void;
  savePreference(extensionId: string, name: string, value: unknown): void;
  /** A server address waiting for the person's answer (the host asked). */
  pendingGrant: { extensionId: string; name: string; grant: UiGrantQuestion } | undefined;
  answerGrant(allow: boolean): void;
  runNow(extensionId: string): void;
  signIn(extensionId: string, provider: string, action: "connect" | "disconnect", connection?: string): void;
  manage(extensionId: string, action: "enable" | "disable" | "uninstall"): void;
  /** Opens the update review of an installed extension changed on disk (accepting it records it as approved). */
  reviewChanges(extensionId: string): void;
  /** "Check for updates" at the address it was installed from. */
  checkUpdates(extensionId: string): void;
  /** Opens the review of its staged update (Update installs it). */
  reviewStaged(extensionId: string): void;
  /** One extension's tools (for their switches for AI agents). */
  toolsOf(extensionId: string): readonly PageTool[];
  setAgents(toolId: string, enabled: boolean): void;
  /** The extension whose uninstall waits for a second press, if any. */
  confirmingUninstall: string | undefined;
  askUninstall(extensionId: string | undefined): void;
  /** Whether an extension's row is open to its details, and opening or closing it. */
  isOpen(extensionId: string): boolean;
  toggleRow(extensionId: string): void;
}

const SOURCE_WORDS: Record<string, string> = {
  bundled: "bundled with svc",
  user: "installed by you",
  dev: "a development link (svckit dev)",
};
const STATUS_WORDS: Record<string, string> = {
  loaded: "running",
  running: "running an update",
  idle: "running",
  loading: "starting",
  crashed: "crashed (svc restarts it)",
  error: "stopped by an error",
  disabled: "turned off",
  broken: "not working",
  overridden: "replaced by another copy",
  stopped: "stopped",
  changed: "not loaded: changed on disk since you installed it",
};

const minutes = (value: string): number => {
  const [h, m] = value.split(":").map(Number);
  return h * 60 + m;
};
const hhmm = (total: number): string =>
  `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;

function fieldStatus(ctx: SettingsContext, key: string) {
  const said = ctx.status.get(key);
  if (!said) return nothing;
  return html`<span class=${said.ok ? "saved" : "problem"} role="status">${shown(said.text, CAPS.body)}</span>`;
}

function appSettings(ctx: SettingsContext) {
  const s = ctx.settings;
  if (!s) return nothing;
  const hours = s.workingHours;
  return html`<section class="card" aria-labelledby="app-settings">
    <h2 id="app-settings">svc</h2>
    ${ctx.onBattery ? html`<p class="battery-note" role="status">On battery: extensions update 3× less often (never more often than they ask). Back on power, as usual.</p>` : nothing}
    <fieldset>
      <legend>Open the panel</legend>
      <label><input type="radio" name="openOn" .checked=${s.openOn === "hover"} @change=${() => ctx.saveSettings({ openOn: "hover" })} /> when the pointer rests on the notch</label>
      <label><input type="radio" name="openOn" .checked=${s.openOn === "click"} @change=${() => ctx.saveSettings({ openOn: "click" })} /> on click only</label>
      <label>Hover delay (ms) <input type="number" min="0" max="5000" step="50" .value=${String(s.hoverDelayMs)} ?disabled=${s.openOn === "click"}
        @change=${(e: Event) => ctx.saveSettings({ hoverDelayMs: Number((e.target as HTMLInputElement).value) })} /></label>
    </fieldset>
    <label>Display <select @change=${(e: Event) => ctx.saveSettings({ display: (e.target as HTMLSelectElement).value })}>
      <option value="primary" ?selected=${s.display === "primary"}>Main display</option>
      <option value="pointer" ?selected=${s.display === "pointer"}>The display with the pointer</option>
    </select></label>
    <label><input type="checkbox" .checked=${s.hideInFullscreen} @change=${(e: Event) => ctx.saveSettings({ hideInFullscreen: (e.target as HTMLInputElement).checked })} /> Hide while an app is full screen</label>
    <label>Reduce motion <select @change=${(e: Event) => ctx.saveSettings({ reduceMotion: (e.target as HTMLSelectElement).value as AppSettings["reduceMotion"] })}>
      <option value="system" ?selected=${s.reduceMotion === "system"}>As the system says</option>
      <option value="on" ?selected=${s.reduceMotion === "on"}>Always</option>
      <option value="off" ?selected=${s.reduceMotion === "off"}>Never</option>
    </select></label>
    <fieldset>
      <legend>Working hours</legend>
      <label><input type="checkbox" .checked=${hours !== null} @change=${(e: Event) =>
        ctx.saveSettings({
          workingHours: (e.target as HTMLInputElement).checked ? { start: 540, end: 1020, weekdaysOnly: true } : null,
        })} /> I have working hours</label>
      ${
        hours === null
          ? nothing
          : html`
        <label>Start <input type="time" .value=${hhmm(hours.start)} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, start: minutes((e.target as HTMLInputElement).value) } })} /></label>
        <label>End <input type="time" .value=${hhmm(hours.end)} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, end: minutes((e.target as HTMLInputElement).value) } })} /></label>
        <label><input type="checkbox" .checked=${hours.weekdaysOnly} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, weekdaysOnly: (e.target as HTMLInputElement).checked } })} /> Weekdays only</label>`
      }
    </fieldset>
    ${fieldStatus(ctx, "settings")}
  </section>`;
}

/** One option's field, saved on change (also drawn on the blips its `blips` names). */
export function preferenceField(ext: UiExtension, p: UiPreference, ctx: SettingsContext, where = "settings") {
  const id = `pref-${where}-${ext.id}-${p.name}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const label = html`${shown(p.title, CAPS.label)}${p.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}`;
  const save = (value: unknown) => ctx.savePreference(ext.id, p.name, value);
  const missing =
    p.required &&
    (p.value === null || p.value === "" || (p.type === "password" && !(p.value as { set?: boolean })?.set));
  const common = { required: p.required, invalid: missing ? "true" : "false" };
  let control;
  switch (p.type) {
    case "checkbox":
      control = html`<input id=${id} type="checkbox" .checked=${p.value === true} @change=${(e: Event) => save((e.target as HTMLInputElement).checked)} />`;
      break;
    case "dropdown":
      control = html`<select id=${id} ?required=${common.required} aria-invalid=${common.invalid} @change=${(e: Event) => save((e.target as HTMLSelectElement).value)}>
        ${(p.options ?? []).map((o) => html`<option .value=${o.value} ?selected=${o.value === p.value}>${shown(o.title, CAPS.label)}</option>`)}</select>`;
      break;
    case "number":
      control = html`<input id=${id} type="number" ?required=${common.required} aria-invalid=${common.invalid} .value=${p.value === null ? "" : String(p.value)}
        @change=${(e: Event) => {
          const v = (e.target as HTMLInputElement).value;
          save(v === "" ? null : Number(v));
        }} />`;
      break;
    case "multiline":
      control = html`<textarea id=${id} rows="3" ?required=${common.required} aria-invalid=${common.invalid} placeholder=${shown(p.placeholder ?? "", CAPS.label)} .value=${typeof p.value === "string" ? p.value : ""}
        @change=${(e: Event) => save((e.target as HTMLTextAreaElement).value)}></textarea>`;
      break;
    case "password": {
      const set = (p.value as { set?: boolean })?.set === true;
      control = html`<input id=${id} type="password" autocomplete="new-password" ?required=${common.required && !set} aria-invalid=${common.invalid} ?disabled=${!ctx.secretsAvailable}
          placeholder=${set ? "•••••• (set; type to replace)" : "not set"} @change=${(e: Event) => {
            const input = e.target as HTMLInputElement;
            save(input.value === "" ? null : input.value);
            input.value = "";
          }} />
        ${set ? html`<button type="button" class="button" @click=${() => save(null)}>Clear</button>` : nothing}
        ${ctx.secretsAvailable ? nothing : html`<span class="problem">No secret store: passwords cannot be kept on this system.</span>`}`;
      break;
    }
    case "url": {
      const set = typeof p.value === "string" && p.value !== "";
      control = html`<input id=${id} type="url" inputmode="url" ?required=${common.required} aria-invalid=${common.invalid} placeholder=${shown(p.placeholder ?? "https://", CAPS.label)} .value=${set ? (p.value as string) : ""}
          @change=${(e: Event) => {
            const v = (e.target as HTMLInputElement).value.trim();
            save(v === "" ? null : v);
          }} />
        ${set ? html`<button type="button" class="button" @click=${() => save(null)}>Clear</button>` : nothing}
        ${grantPrompt(ext, p, ctx)}`;
      break;
    }
    default:
      control = html`<input id=${id} type="text" ?required=${common.required} aria-invalid=${common.invalid} placeholder=${shown(p.placeholder ?? "", CAPS.label)} .value=${typeof p.value === "string" ? p.value : ""}
        @change=${(e: Event) => save((e.target as HTMLInputElement).value)} />`;
  }
  return html`<div class="pref">
    <label for=${id}>${label}</label> ${control}
    ${p.description ? html`<span class="sub">${shown(p.description)}</span>` : nothing}
    ${p.blips?.length ? html`<span class="sub">Applies to: ${p.blips.map((b) => shown(b, CAPS.label)).join(", ")}</span>` : nothing}
    ${missing ? html`<span class="problem">Required: ${ext.title ? shown(ext.title, CAPS.label) : "this extension"} needs it to work.</span>` : nothing}
    ${fieldStatus(ctx, `${ext.id}/${p.name}`)}
  </div>`;
}

/** "Let <title> connect to <host>?" under a `url` option, until the person answers. */
function grantPrompt(ext: UiExtension, p: UiPreference, ctx: SettingsContext) {
  const pending = ctx.pendingGrant;
  if (!pending || pending.extensionId !== ext.id || pending.name !== p.name) return nothing;
  const { grant } = pending;
  return html`<div class="grant" role="alertdialog" aria-label="Allow a server">
    <p><strong>${shown(grant.question, CAPS.label)}</strong></p>
    <p class="sub">It may then connect to ${shown(grant.origin, CAPS.label)}: that scheme, host and port only.</p>
    ${grant.risk ? html`<p class="risk">⚠ ${shown(grant.risk, CAPS.label)}</p>` : nothing}
    <button type="button" class="button primary" @click=${() => ctx.answerGrant(true)}>Allow</button>
    <button type="button" class="button" @click=${() => ctx.answerGrant(false)}>Don't allow</button>
  </div>`;
}

const megabytes = (bytes: number, locale: string) =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1_048_576);

function figures(ext: UiExtension, ctx: SettingsContext) {
  const f = ext.figures;
  if (!f) return nothing;
  const parts = [
    f.heapBytes === undefined ? undefined : `memory ${megabytes(f.heapBytes, ctx.locale)} MB`,
    f.cpuMs === undefined ? undefined : `CPU ${new Intl.NumberFormat(ctx.locale).format(Math.round(f.cpuMs))} ms`,
  ].filter(Boolean);
  return html`<p class="sub figures">${parts.join(" · ")}</p>`;
}

function signIns(ext: UiExtension, ctx: SettingsContext) {
  if (ext.signIns.length === 0) return nothing;
  return html`<h3>Sign-ins</h3>${ext.signIns.map((s) => {
    const title = shown(s.title, CAPS.label);
    return html`<div class="signin">
      ${
        s.connections.length === 0
          ? html`<p>Not connected to ${title}.</p>`
          : html`<ul class="connections" aria-label=${`${title} connections`}>${s.connections.map(
              (c) => html`<li>
        ${shown(c.account ?? c.label ?? "an account", CAPS.label)}${c.label && c.account ? html` <span class="sub">(${shown(c.label, CAPS.label)})</span>` : nothing}
        ${c.needsReconnect ? html`<span class="problem">needs signing in again</span>` : nothing}
        <button type="button" class="button" @click=${() => ctx.signIn(ext.id, s.provider, "disconnect", c.id)}>Disconnect</button>
      </li>`,
            )}</ul>`
      }
      <button type="button" class="button" ?disabled=${!ctx.secretsAvailable} @click=${() => ctx.signIn(ext.id, s.provider, "connect")}>${s.connections.length ? `Connect another ${title} account` : `Connect ${title}`}</button>
      ${fieldStatus(ctx, `${ext.id}/signin/${s.provider}`)}
    </div>`;
  })}`;
}

function denials(ext: UiExtension) {
  if (ext.denials.length === 0) return nothing;
  return html`<h3>Recently refused</h3><ul class="denials">${ext.denials.map((d) => html`<li>${withStack(d.message, 300)}</li>`)}</ul>`;
}

/** A message in the open, the stack frames run into it only behind "details". */
function withStack(text: string, cap: number) {
  const { message, more } = splitError(text);
  return html`${shownLines(message, cap)}${more ? html`<details class="stack"><summary>details</summary><pre>${shownLines(more, CAPS.body)}</pre></details>` : nothing}`;
}

/** The last problem: its message in the open, a stack only behind "details". */
function problem(error: string) {
  return html`<div class="problem" role="alert">Problem: ${withStack(error, CAPS.body)}</div>`;
}

/** Where it updates from, and an update that waits for the person because it can do more. */
function updates(ext: UiExtension, ctx: SettingsContext) {
  if (ext.address === undefined && ext.staged === undefined) return nothing;
  return html`<div class="updates"><h3>Updates</h3>
    ${ext.address === undefined ? nothing : html`<p class="sub">From <code class="address">${shown(ext.address, CAPS.body)}</code></p>`}
    ${
      ext.staged === undefined
        ? nothing
        : html`<p class="problem staged">An update${ext.staged.version ? ` to ${shown(ext.staged.version, 40)}` : ""} is staged: ${ext.staged.because === "key" ? "it is not signed with the key you installed this version with" : "it can do more than this version"}, so it waits for your review. This version keeps running.</p>`
    }
    <div class="actions">
      ${ext.staged === undefined ? nothing : html`<button type="button" class="button primary" @click=${() => ctx.reviewStaged(ext.id)}>Review update…</button>`}
      ${ext.address === undefined ? nothing : html`<button type="button" class="button" @click=${() => ctx.checkUpdates(ext.id)}>Check for updates</button>`}
    </div>
    ${fieldStatus(ctx, `${ext.id}/update`)}</div>`;
}

/** Everything about one extension, under its row once opened. */
function extensionDetails(ext: UiExtension, ctx: SettingsContext, id: string) {
  return html`<div class="ext-details" id=${id}>
    <p class="sub">${shown(ext.id, CAPS.label)}${ext.version ? ` · ${shown(ext.version, 40)}` : ""} · ${SOURCE_WORDS[ext.source] ?? shown(ext.source, 20)}</p>
    ${ext.description ? html`<p class="description" dir="auto">${shownLines(ext.description, 500)}</p>` : nothing}
    <p class="status ${/^[a-z]{1,12}$/.test(ext.status) ? ext.status : ""}">Status: ${STATUS_WORDS[ext.status] ?? shown(ext.status, 20)}
      ${ext.lastRun ? html` · last run ${formatRelative(ext.lastRun.at, ctx.now, ctx.locale)}: ${ext.lastRun.result === "ok" ? "fine" : shown(ext.lastRun.result, 20)}` : nothing}</p>
    ${figures(ext, ctx)}
    ${ext.error ? problem(ext.error) : nothing}
    <h3>What it can reach</h3>
    ${
      ext.reach.length === 0
        ? html`<p>Nothing outside svc: no network, no files, no programs.</p>`
        : html`<ul class="reach">${ext.reach.map((r) => html`<li class=${r.risk ? "risky" : ""}>${r.risk ? html`<strong>⚠ </strong>` : nothing}${shown(r.text, CAPS.body)}${r.risk ? html` — <em>${shown(r.risk, CAPS.body)}</em>` : nothing}</li>`)}</ul>`
    }
    ${updates(ext, ctx)}
    ${denials(ext)}
    ${signIns(ext, ctx)}
    ${ext.preferences.length === 0 ? nothing : html`<h3>Options</h3>${ext.preferences.map((p) => preferenceField(ext, p, ctx))}`}
    <h3>The notch</h3>
    <label class="switch"><input type="checkbox" role="switch" .checked=${mayPop(ctx.settings?.mayPop, ext)}
      @change=${(e: Event) => ctx.saveSettings({ mayPop: { [ext.id]: (e.target as HTMLInputElement).checked } })} /> May pop the notch open when a blip changes state</label>
    ${agentSwitchesView({ tools: ctx.toolsOf(ext.id), status: ctx.status, setAgents: ctx.setAgents })}
    <div class="actions">
      ${ext.status === "changed" ? html`<button type="button" class="button" @click=${() => ctx.reviewChanges(ext.id)}>Review changes…</button>` : nothing}
      ${ext.enabled && ext.status !== "broken" && ext.status !== "changed" && ext.status !== "overridden" ? html`<button type="button" class="button" @click=${() => ctx.runNow(ext.id)}>Run now</button>` : nothing}
      ${
        ext.source === "bundled" || ext.status === "overridden"
          ? nothing
          : ctx.confirmingUninstall === ext.id
            ? html`<span role="alert">Remove ${shown(ext.title, CAPS.label)}, its options and its data?</span>
              <button type="button" class="button destructive" @click=${() => ctx.manage(ext.id, "uninstall")}>Remove</button>
              <button type="button" class="button" @click=${() => ctx.askUninstall(undefined)}>Keep</button>`
            : html`<button type="button" class="button destructive" @click=${() => ctx.askUninstall(ext.id)}>Uninstall…</button>`
      }
    </div>
    ${fieldStatus(ctx, `${ext.id}/run`)}
  </div>`;
}

/** One row per extension: icon, title, a short state and its on/off switch; it opens to its details. */
function extensionRow(ext: UiExtension, ctx: SettingsContext) {
  const headingId = `ext-${ext.id}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const detailsId = `${headingId}-details`;
  const open = ctx.isOpen(ext.id);
  const state = rowState(ext);
  return html`<li class="extension ext-row ${open ? "open" : ""}" data-extension=${ext.id}>
    <div class="ext-row-head">
      <h2 id=${headingId}><button type="button" class="ext-open" aria-expanded=${open ? "true" : "false"} aria-controls=${detailsId}
        @click=${() => ctx.toggleRow(ext.id)}>
        <span class="icon" aria-hidden="true">${ext.icon === undefined ? nothing : iconElement(ext.icon)}</span>
        <span class="ext-title" dir="auto">${shown(ext.title, CAPS.title)}</span>
        <span class="ext-state ${state.tone}">${state.text}</span>
        <span class="chevron" aria-hidden="true">›</span>
      </button></h2>
      ${
        ext.status === "overridden"
          ? nothing
          : html`<label class="switch"><input type="checkbox" role="switch" .checked=${ext.enabled}
        @change=${(e: Event) => ctx.manage(ext.id, (e.target as HTMLInputElement).checked ? "enable" : "disable")} /><span class="sr">On</span></label>`
      }
    </div>
    ${fieldStatus(ctx, `${ext.id}/manage`)}
    ${open ? extensionDetails(ext, ctx, detailsId) : nothing}
  </li>`;
}

export function settingsView(ctx: SettingsContext) {
  return html`<div class="settings">
    <ul class="ext-rows" aria-label="Extensions">${ctx.extensions.map((ext) => extensionRow(ext, ctx))}</ul>
    ${appSettings(ctx)}
  </div>`;
}
