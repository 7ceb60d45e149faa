/**
 * Who is speaking, drawn the same way on every blip and every notify line: the extension's name
 * (from Settings' list, `model/speaker.ts`) in a small muted tag before the stranger's text, like
 * the app name on a system notification, and its id beside it when the name alone could mislead.
 * Screen readers hear "from <name>".
 */
import { html, nothing, type TemplateResult } from "lit";
import type { Speaker } from "../model/speaker.js";

export function speakerTag(speaker: Speaker): TemplateResult {
  return html`<span class="from" data-from=${speaker.id ?? speaker.name}><span class="sr">from </span><bdi>${speaker.name}</bdi>${
    speaker.id === undefined ? nothing : html` <bdi class="from-id">${speaker.id}</bdi>`
  }</span>`;
}
