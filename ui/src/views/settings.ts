/**
 * Settings: the app's own settings, working hours, then per extension its facts, status, last
 * problem, what it can reach in plain words and its options. Every change is saved at once
 * (a preference change makes the extension run with trigger `preferences`). Passwords are
 * write-only: the page only knows whether one is set.
 */
import { html, nothing } from "lit";
import { CAPS, shown, shownLines } from "../format/text.js";
import { formatRelative } from "../format/values.js";
import type { AppSettings, UiExtension, UiPreference } from "../wire.js";

export interface SettingsContext {
  locale: string;
  now: number;
  settings: AppSettings | undefined;
  extensions: UiExtension[];
  secretsAvailable: boolean;
  /** Field key → the last save's problem (or "saved"). */
  status: ReadonlyMap<string, string>;
  saveSettings(change: Partial<AppSettings>): void;
  savePreference(extensionId: string, name: string, value: unknown): void;
  runNow(extensionId: string): void;
}

const minutes = (value: string): number => {
  const [h, m] = value.split(":").map(Number);
  return h * 60 + m;
};
const hhmm = (total: number): string => `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;

function fieldStatus(ctx: SettingsContext, key: string) {
  const said = ctx.status.get(key);
  if (!said) return nothing;
  return html`<span class=${said === "saved" ? "saved" : "problem"} role="status">${shown(said, CAPS.body)}</span>`;
}

function appSettings(ctx: SettingsContext) {
  const s = ctx.settings;
  if (!s) return nothing;
  const hours = s.workingHours;
  return html`<section class="card" aria-labelledby="app-settings">
    <h2 id="app-settings">svc</h2>
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
        ctx.saveSettings({ workingHours: (e.target as HTMLInputElement).checked ? { start: 540, end: 1020, weekdaysOnly: true } : null })} /> I have working hours</label>
      ${hours === null ? nothing : html`
        <label>Start <input type="time" .value=${hhmm(hours.start)} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, start: minutes((e.target as HTMLInputElement).value) } })} /></label>
        <label>End <input type="time" .value=${hhmm(hours.end)} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, end: minutes((e.target as HTMLInputElement).value) } })} /></label>
        <label><input type="checkbox" .checked=${hours.weekdaysOnly} @change=${(e: Event) => ctx.saveSettings({ workingHours: { ...hours, weekdaysOnly: (e.target as HTMLInputElement).checked } })} /> Weekdays only</label>`}
    </fieldset>
    ${fieldStatus(ctx, "settings")}
  </section>`;
}

function preferenceField(ext: UiExtension, p: UiPreference, ctx: SettingsContext) {
  const id = `pref-${ext.id}-${p.name}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const label = html`${shown(p.title, CAPS.label)}${p.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}`;
  const save = (value: unknown) => ctx.savePreference(ext.id, p.name, value);
  const missing = p.required && (p.value === null || p.value === "" || (p.type === "password" && !(p.value as { set?: boolean })?.set));
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
        @change=${(e: Event) => { const v = (e.target as HTMLInputElement).value; save(v === "" ? null : Number(v)); }} />`;
      break;
    case "multiline":
      control = html`<textarea id=${id} rows="3" ?required=${common.required} aria-invalid=${common.invalid} placeholder=${shown(p.placeholder ?? "", CAPS.label)} .value=${typeof p.value === "string" ? p.value : ""}
        @change=${(e: Event) => save((e.target as HTMLTextAreaElement).value)}></textarea>`;
      break;
    case "password": {
      const set = (p.value as { set?: boolean })?.set === true;
      control = html`<input id=${id} type="password" autocomplete="new-password" ?required=${common.required && !set} aria-invalid=${common.invalid} ?disabled=${!ctx.secretsAvailable}
          placeholder=${set ? "•••••• (set; type to replace)" : "not set"} @change=${(e: Event) => { const input = e.target as HTMLInputElement; save(input.value === "" ? null : input.value); input.value = ""; }} />
        ${set ? html`<button type="button" class="button" @click=${() => save(null)}>Clear</button>` : nothing}
        ${ctx.secretsAvailable ? nothing : html`<span class="problem">No secret store: passwords cannot be kept on this system.</span>`}`;
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

function extensionCard(ext: UiExtension, ctx: SettingsContext) {
  const headingId = `ext-${ext.id}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return html`<section class="card extension" aria-labelledby=${headingId}>
    <h2 id=${headingId} dir="auto">${shown(ext.title, CAPS.title)}</h2>
    <p class="sub">${shown(ext.id, CAPS.label)}${ext.version ? ` · ${shown(ext.version, 40)}` : ""} · ${ext.source === "bundled" ? "bundled with svc" : "installed by you"}</p>
    ${ext.description ? html`<p class="description" dir="auto">${shownLines(ext.description, 500)}</p>` : nothing}
    <p class="status ${ext.status}">Status: ${ext.status === "loaded" ? "running" : ext.status === "broken" ? "not working" : "replaced by another copy"}
      ${ext.lastRun ? html` · last run ${formatRelative(ext.lastRun.at, ctx.now, ctx.locale)}: ${ext.lastRun.result === "ok" ? "fine" : shown(ext.lastRun.result, 20)}` : nothing}</p>
    ${ext.error ? html`<p class="problem" role="alert">Problem: ${shownLines(ext.error, CAPS.body)}</p>` : nothing}
    <h3>What it can reach</h3>
    ${ext.reach.length === 0
      ? html`<p>Nothing outside svc: no network, no files, no programs.</p>`
      : html`<ul class="reach">${ext.reach.map((r) => html`<li class=${r.risk ? "risky" : ""}>${r.risk ? html`<strong>⚠ </strong>` : nothing}${shown(r.text, CAPS.body)}${r.risk ? html` — <em>${shown(r.risk, CAPS.body)}</em>` : nothing}</li>`)}</ul>`}
    ${ext.preferences.length === 0 ? nothing : html`<h3>Options</h3>${ext.preferences.map((p) => preferenceField(ext, p, ctx))}`}
    ${ext.status === "loaded" ? html`<button type="button" class="button" @click=${() => ctx.runNow(ext.id)}>Run now</button>` : nothing}
    ${fieldStatus(ctx, `${ext.id}/run`)}
  </section>`;
}

export function settingsView(ctx: SettingsContext) {
  return html`<div class="settings">
    ${appSettings(ctx)}
    ${ctx.extensions.map((ext) => extensionCard(ext, ctx))}
  </div>`;
}
