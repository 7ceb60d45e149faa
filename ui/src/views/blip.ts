/**
 * One blip: who sent it, icon, title (a link when it has a url), subtitle, state, stale and ended marks, the
 * layout's body, facts, choices and actions, and why its last action failed.
 */
import { html, nothing, type TemplateResult } from "lit";
import { iconElement } from "../icons/index.js";
import { CAPS, safeHref, shown } from "../format/text.js";
import { formatValue } from "../format/values.js";
import { describeBlip, isStale, stateWords } from "../model/describe.js";
import type { Press } from "../model/pressed.js";
import type { Speaker } from "../model/speaker.js";
import type { UiBlip } from "../wire.js";
import { actionButtons } from "./actions.js";
import { layoutBody } from "./layouts.js";
import { speakerTag } from "./speaker.js";

export interface BlipContext {
  locale: string;
  now: number;
  /** Who sent the blip, from the catalog's titles (never from the blip itself). */
  speakerOf(blip: UiBlip): Speaker;
  isPressed(press: Press): boolean;
  isDismissed(blipId: string, itemId: string): boolean;
  problemOf(blipId: string): string | undefined;
  /** True when the extension that sent the blip failed its last run: its figures may be old. */
  lastRunFailed(blip: UiBlip): boolean;
  onAction(
    blip: UiBlip,
    action: { id: string; dismisses: boolean; url?: string },
    itemId?: string,
    input?: string,
  ): void;
  /** Which input field is open (`[blipId, itemId, actionId]` as JSON), if any. */
  inputOpen: string | undefined;
  onInput(key: string | undefined): void;
  /** The extension's options that apply to this blip (`blips` in the manifest), drawn under it. */
  blipOptions(blip: UiBlip): TemplateResult | typeof nothing;
}

type Data = Record<string, unknown>;
/** A final state already says it is over: no "ended" mark beside "✓ succeeded". */
const FINAL_STATES = new Set(["success", "failure", "cancelled"]);
const list = (value: unknown): Data[] => (Array.isArray(value) ? (value as Data[]) : []);

export function blipView(blip: UiBlip, ctx: BlipContext) {
  const stale = !blip.ended && isStale(blip, ctx.now);
  const href = safeHref(blip.url);
  const title = shown(blip.title, CAPS.title);
  const state = typeof blip.state === "string" ? blip.state : "idle";
  const problem = ctx.problemOf(blip.id);
  const from = ctx.speakerOf(blip);
  return html`<article class="blip state-${/^[a-z]{1,12}$/.test(state) ? state : "idle"} ${stale ? "stale" : ""} ${blip.ended ? "ended" : ""} ${blip.source === "push" ? "pushed" : ""}"
      tabindex="0" data-blip=${blip.id} aria-label=${describeBlip(blip, ctx.locale, ctx.now, from)}>
    <header>
      <span class="icon" aria-hidden="true">${blip.icon === undefined ? nothing : iconElement(blip.icon)}</span>
      <span class="titles">
        ${speakerTag(from)}
        ${href ? html`<a class="title" href=${href} target="_blank" rel="noopener noreferrer" dir="auto">${title}</a>` : html`<span class="title" dir="auto">${title}</span>`}
        ${blip.subtitle === undefined ? nothing : html`<span class="sub" dir="auto">${shown(blip.subtitle)}</span>`}
      </span>
      ${blip.state === undefined ? nothing : html`<span class="chip ${state}">${stateWords(blip.state)}</span>`}
      ${stale ? html`<span class="mark" title="no update lately">stale</span>` : nothing}
      ${ctx.lastRunFailed(blip) ? html`<span class="mark run-failed" title="its last run failed: these figures may be old">last run failed</span>` : nothing}
      ${blip.ended && !FINAL_STATES.has(state) ? html`<span class="mark">ended</span>` : nothing}
    </header>
    ${layoutBody(blip, ctx)}
    ${
      list(blip.facts).length === 0
        ? nothing
        : html`<dl class="facts">${list(blip.facts).map((fact) => html`<div><dt>${shown(fact.label, CAPS.label)}</dt><dd dir="auto">${formatValue(fact.value, ctx.locale, ctx.now)}</dd></div>`)}</dl>`
    }
    ${actionButtons(blip, list(blip.actions), ctx, undefined, list(blip.choices))}
    ${problem ? html`<p class="problem" role="alert">${shown(problem, CAPS.body)}</p>` : nothing}
    ${ctx.blipOptions(blip)}
  </article>`;
}
