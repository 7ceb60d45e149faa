/**
 * The seven layouts' `data`, drawn with text bindings only. Every string from the extension goes
 * through `shown()`; numbers are formatted for the locale; bars use native <progress>/<meter>.
 */
import { html, nothing, svg, type TemplateResult } from "lit";
import { iconElement } from "../icons/index.js";
import { CAPS, safeHref, shown } from "../format/text.js";
import { formatRelative, formatValue, isNegative } from "../format/values.js";
import { stateWords } from "../model/describe.js";
import { progressFinished } from "../model/ears.js";
import type { UiBlip } from "../wire.js";
import type { BlipContext } from "./blip.js";
import { actionButtons } from "./actions.js";
import "./ticker.js";

type Data = Record<string, unknown>;
const list = (value: unknown): Data[] => (Array.isArray(value) ? (value as Data[]) : []);
const time = (value: unknown): number => Date.parse(String(value));

/** A sparkline of `series` (oldest first), scaled to its own range. */
export function sparkline(series: unknown): TemplateResult | typeof nothing {
  const points = list(series).map(Number).filter(Number.isFinite) as unknown as number[];
  if (points.length < 2) return nothing;
  const min = Math.min(...points);
  const span = Math.max(...points) - min || 1;
  const coords = points
    .map((p, i) => `${((i / (points.length - 1)) * 100).toFixed(1)},${(28 - ((p - min) / span) * 26).toFixed(1)}`)
    .join(" ");
  return html`<svg class="spark" viewBox="0 0 100 30" preserveAspectRatio="none" role="img" aria-label=${`trend of ${points.length} points, last ${points[points.length - 1]}`}>${svg`<polyline points=${coords}></polyline>`}</svg>`;
}

function stat(data: Data, ctx: BlipContext) {
  const delta =
    data.delta === undefined
      ? nothing
      : html`<span class="delta ${isNegative(data.delta) ? "down" : "up"}">${isNegative(data.delta) ? "▼" : "▲"} ${formatValue(data.delta, ctx.locale, ctx.now)}</span>`;
  return html`<div class="stat">
    <span class="figure">${formatValue(data.value, ctx.locale, ctx.now)}</span>
    ${data.label === undefined ? nothing : html`<span class="label">${shown(data.label, CAPS.label)}</span>`} ${delta}
    ${sparkline(data.series)}
  </div>`;
}

const STAGE_MARK: Record<string, string> = { pending: "○", running: "◐", done: "●", failed: "✕", skipped: "–" };

function progress(data: Data, blip: UiBlip) {
  const fraction = typeof data.fraction === "number" ? data.fraction : 0;
  // A finished progress says how it ended (the state chip): not the percent and step it stopped at.
  if (progressFinished(blip))
    return html`<div class="progress finished">
      <progress max="1" .value=${blip.state === "success" ? 1 : fraction} aria-label=${`${shown(blip.title, CAPS.title)}: ${stateWords(blip.state ?? "success")}`}></progress>
      ${stages(data)}
    </div>`;
  return html`<div class="progress">
    <progress max="1" .value=${fraction} aria-label=${`${shown(blip.title, CAPS.title)}: ${Math.round(fraction * 100)} percent`}></progress>
    <span class="percent">${Math.round(fraction * 100)}%</span>
    ${data.step === undefined ? nothing : html`<div class="step">${shown(data.step)}</div>`}
    ${stages(data)}
  </div>`;
}

function stages(data: Data) {
  return list(data.stages).length === 0
    ? nothing
    : html`<ol class="stages" aria-label="stages">${list(data.stages).map((stage) => {
        const state = String(stage.state);
        return html`<li class="stage ${Object.hasOwn(STAGE_MARK, state) ? state : "pending"}"><span aria-hidden="true">${STAGE_MARK[state] ?? "○"}</span> ${shown(stage.title, CAPS.label)}<span class="sr"> ${shown(state, 20)}</span></li>`;
      })}</ol>`;
}

function session(data: Data) {
  return html`<div class="session">
    <svc-ticker class="figure" .from=${time(data.startedAt)} aria-label="running for"></svc-ticker>
    ${data.step === undefined ? nothing : html`<div class="step">${shown(data.step)}</div>`}
  </div>`;
}

function listLayout(data: Data, blip: UiBlip, ctx: BlipContext) {
  const items = list(data.items).filter((item) => !ctx.isDismissed(blip.id, String(item.id)));
  const total = typeof data.total === "number" ? data.total : undefined;
  const more = total !== undefined && total > items.length ? total - items.length : 0;
  return html`<ul class="items">
    ${items.map((item) => {
      const href = safeHref(item.url);
      const title = shown(item.title, CAPS.title);
      return html`<li class="item">
        ${item.icon === undefined ? nothing : html`<span class="icon" aria-hidden="true">${iconElement(item.icon)}</span>`}
        <span class="item-text">
          ${href ? html`<a href=${href} target="_blank" rel="noopener noreferrer" dir="auto">${title}</a>` : html`<span class="item-title" dir="auto">${title}</span>`}
          ${item.subtitle === undefined ? nothing : html`<span class="sub" dir="auto">${shown(item.subtitle)}</span>`}
        </span>
        ${item.state === undefined ? nothing : html`<span class="chip ${String(item.state)}">${stateWords(item.state)}</span>`}
        ${item.value === undefined ? nothing : html`<span class="value">${formatValue(item.value, ctx.locale, ctx.now)}</span>`}
        ${actionButtons(blip, list(item.actions), ctx, String(item.id))}
      </li>`;
    })}
  </ul>
  ${more > 0 ? html`<div class="more">${more} more</div>` : nothing}`;
}

function side(value: unknown) {
  const s = (value ?? {}) as Data;
  return html`<span class="side">${s.icon === undefined ? nothing : html`<span class="icon" aria-hidden="true">${iconElement(s.icon)}</span>`}<span class="name" dir="auto">${shown(s.name, CAPS.label)}</span><span class="score-value">${typeof s.score === "number" ? s.score : ""}</span></span>`;
}

function score(data: Data) {
  return html`<div class="score">${side(data.home)}<span class="vs" aria-hidden="true">–</span>${side(data.away)}
    ${data.period === undefined ? nothing : html`<span class="period">${shown(data.period, CAPS.label)}</span>`}</div>`;
}

function countdown(data: Data, ctx: BlipContext) {
  const end = time(data.endsAt);
  const start = time(data.startedAt);
  const passed =
    Number.isNaN(start) || end <= start ? undefined : Math.min(1, Math.max(0, (ctx.now - start) / (end - start)));
  return html`<div class="countdown">
    <svc-ticker class="figure" .to=${end} aria-label="time left"></svc-ticker>
    <span class="label">${Number.isNaN(end) ? "" : new Intl.DateTimeFormat(ctx.locale, { timeStyle: "short" }).format(end)}</span>
    ${passed === undefined ? nothing : html`<progress max="1" .value=${passed} aria-label="time passed"></progress>`}
  </div>`;
}

function meter(data: Data, ctx: BlipContext) {
  return html`<div class="meters">${list(data.meters).map((m) => {
    const fraction = typeof m.fraction === "number" ? m.fraction : 0;
    const label = shown(m.label, CAPS.label);
    const resets = time(m.resetsAt);
    return html`<div class="meter-row">
      <span class="label">${label}</span>
      <meter min="0" max="1" low="0.7" high="0.9" optimum="0" .value=${fraction} aria-label=${`${label} ${Math.round(fraction * 100)} percent`}></meter>
      <span class="value">${m.value === undefined ? `${Math.round(fraction * 100)}%` : formatValue(m.value, ctx.locale, ctx.now)}</span>
      ${Number.isNaN(resets) ? nothing : html`<span class="sub">resets ${formatRelative(resets, ctx.now, ctx.locale)}</span>`}
    </div>`;
  })}</div>`;
}

/** The layout's part of a blip; an unknown layout draws nothing (the header still shows). */
export function layoutBody(blip: UiBlip, ctx: BlipContext): TemplateResult | typeof nothing {
  const data = (blip.data ?? {}) as Data;
  switch (blip.layout) {
    case "stat":
      return stat(data, ctx);
    case "progress":
      return progress(data, blip);
    case "session":
      return session(data);
    case "list":
      return listLayout(data, blip, ctx);
    case "score":
      return score(data);
    case "countdown":
      return countdown(data, ctx);
    case "meter":
      return meter(data, ctx);
    default:
      return nothing;
  }
}
