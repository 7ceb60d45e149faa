/**
 * The collapsed notch: one button whose two "ears" beside the (hardware) notch show the blip that
 * matters most (`model/ears.ts`): its icon and figure on the left, its state, label or end time
 * and who sent it on the right (its id alone when the name could mislead: the ear has no room
 * for both, and the id is the unambiguous half), a thin bar under both for a progress, a countdown or a meter.
 * The button's name is what it shows, after the blip's title ("Open svc: Standup, 24:31 10:45 from Focus").
 */
import { html, nothing, type TemplateResult } from "lit";
import { iconElement } from "../icons/index.js";
import { CAPS, shown } from "../format/text.js";
import { formatValue } from "../format/values.js";
import { stateWords } from "../model/describe.js";
import { earsParts } from "../model/ears.js";
import type { UiBlip } from "../wire.js";
import type { BlipContext } from "./blip.js";
import { speakerTag } from "./speaker.js";
import "./ticker.js";

const OUTCOME_MARK: Record<string, string> = { success: "✓", failure: "✕", cancelled: "–" };

function figure(parts: ReturnType<typeof earsParts>) {
  if (parts.outcome)
    return html`<span class="ear-figure outcome ${parts.outcome}" aria-hidden="true">${OUTCOME_MARK[parts.outcome] ?? "✓"}</span>`;
  const f = parts.figure;
  if (f === undefined) return nothing;
  if (typeof f === "string") return html`<span class="ear-figure">${shown(f, CAPS.label)}</span>`;
  return f.ticks === "to"
    ? html`<svc-ticker class="ear-figure" .to=${f.at}></svc-ticker>`
    : html`<svc-ticker class="ear-figure" .from=${f.at}></svc-ticker>`;
}

function side(parts: ReturnType<typeof earsParts>) {
  if (parts.side === undefined) return nothing;
  const text = parts.sideKind === "state" ? (stateWords(parts.side) ?? "") : shown(parts.side, CAPS.label);
  const state = parts.sideKind === "state" && /^[a-z]{1,12}$/.test(parts.side) ? parts.side : "";
  return html`<span class="ear-side ${parts.sideKind} ${state}" dir="auto">${text}</span>`;
}

/** The notch button while collapsed: the ears of `blip`, or the bare notch when nothing is live. */
export function earsButton(blip: UiBlip | undefined, ctx: BlipContext, open: () => void): TemplateResult {
  if (!blip)
    return html`<button type="button" class="notch-button" aria-expanded="false" aria-controls="panel" aria-label="Open svc" @click=${open}><span class="notch-gap"></span></button>`;
  const parts = earsParts(blip, ctx.now, {
    value: (value) => formatValue(value, ctx.locale, ctx.now),
    time: (ms) => new Intl.DateTimeFormat(ctx.locale, { timeStyle: "short" }).format(ms),
  });
  const from = ctx.speakerOf(blip);
  // The name is the visible text, with the title before it for screen readers ("Open svc: Deploy
  // api, 50% running from Deploys"): a label of other words would not match what is seen.
  return html`<button type="button" class="notch-button" aria-expanded="false" aria-controls="panel" data-ears=${blip.id} @click=${open}>
    <span class="sr">Open svc: ${shown(blip.title, CAPS.title)}, </span>
    <span class="ear ear-left"><span class="icon" aria-hidden="true">${blip.icon === undefined ? nothing : iconElement(blip.icon)}</span>${figure(parts)}</span>
    <span class="notch-gap"></span>
    <span class="ear ear-right">${side(parts)} ${speakerTag(from.id === undefined ? from : { name: from.id })}</span>
    ${parts.bar === undefined ? nothing : html`<progress class="ear-bar" max="1" .value=${parts.bar} aria-hidden="true"></progress>`}
  </button>`;
}
