/**
 * Quick choices and action buttons. A pressed button shows pressed (aria-pressed, busy) until the
 * host answers; an action with `input` opens a small text field first; an action with a `url`
 * is a link (http/https only).
 */
import { html, nothing } from "lit";
import { iconElement } from "../icons/index.js";
import { CAPS, safeHref, shown } from "../format/text.js";
import type { UiBlip } from "../wire.js";
import type { BlipContext } from "./blip.js";

type Data = Record<string, unknown>;

function button(blip: UiBlip, action: Data, ctx: BlipContext, itemId: string | undefined, kind: "choice" | "action") {
  const id = String(action.id);
  const title = shown(action.title, CAPS.label);
  const role = action.role === "primary" || action.role === "destructive" ? action.role : "default";
  const href = safeHref(action.url);
  if (href && !action.input) {
    return html`<a class="button ${role}" href=${href} target="_blank" rel="noopener noreferrer">${title}</a>`;
  }
  const pressed = ctx.isPressed({ blipId: blip.id, actionId: id, ...(itemId === undefined ? {} : { itemId }) });
  const open = ctx.inputOpen === JSON.stringify([blip.id, itemId ?? null, id]);
  const press = (input?: string) =>
    ctx.onAction(blip, { id, dismisses: action.dismisses === true, ...(href ? { url: href } : {}) }, itemId, input);
  if (action.input && open) {
    const placeholder = shown((action.input as Data).placeholder ?? "", CAPS.label);
    return html`<form class="input-form" @submit=${(e: Event) => {
      e.preventDefault();
      const field = (e.currentTarget as HTMLFormElement).querySelector("input")!;
      press(field.value);
    }}>
      <input type="text" aria-label=${title} placeholder=${placeholder} maxlength="2000" autofocus />
      <button class="button ${role}" type="submit" ?disabled=${pressed} aria-busy=${pressed ? "true" : "false"}>${title}</button>
      <button class="button" type="button" @click=${() => ctx.onInput(undefined)}>Cancel</button>
    </form>`;
  }
  // Pressed buttons stay focusable (aria-disabled, not disabled): the keyboard user keeps their place.
  return html`<button class="button ${role} ${kind}" type="button" aria-pressed=${pressed ? "true" : "false"} aria-busy=${pressed ? "true" : "false"} aria-disabled=${pressed ? "true" : "false"}
    @click=${() => (action.input ? ctx.onInput(JSON.stringify([blip.id, itemId ?? null, id])) : press())}>
    ${action.icon === undefined ? nothing : html`<span aria-hidden="true">${iconElement(action.icon)} </span>`}${title}${pressed ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
  </button>`;
}

/** Buttons for `actions` (and, on the blip itself, `choices` first). */
export function actionButtons(blip: UiBlip, actions: Data[], ctx: BlipContext, itemId?: string, choices: Data[] = []) {
  if (actions.length === 0 && choices.length === 0) return nothing;
  return html`<div class="actions" role="group" aria-label="actions">
    ${choices.map((choice) => button(blip, choice, ctx, itemId, "choice"))}
    ${actions.map((action) => button(blip, action, ctx, itemId, "action"))}
  </div>`;
}
