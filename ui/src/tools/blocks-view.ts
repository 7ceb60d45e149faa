/**
 * A tool's result blocks (SPEC.md "Result blocks"), all seven types. Every string goes through
 * the display-text rule; links only http/https; a colour swatch is painted through CSSOM (the
 * page's CSP refuses style attributes); tones other than neutral carry a shape, not colour alone.
 */
import { html, nothing, type TemplateResult } from "lit";
import { ref } from "lit/directives/ref.js";
import type { Block } from "@svc/api";
import { CAPS, safeHref, shown, shownLines } from "../format/text.js";
import { formatValue } from "../format/values.js";

/** An image block may carry its picture inlined by the UI server. */
export type PageBlock = Block | (Extract<Block, { type: "image" }> & { dataUrl?: string });

const TONE_SHAPE: Record<string, string> = { positive: "✔", warning: "▲", critical: "✖", neutral: "" };
/** Text and code are cut by the runtime at 100,000 characters; show them whole. */
const LONG = 100_001;

function copy(text: string, button: HTMLButtonElement): void {
  void navigator.clipboard?.writeText(text).then(
    () => (button.textContent = "Copied"),
    () => (button.textContent = "Copy failed"),
  );
}

function block(b: PageBlock, locale: string, now: number): TemplateResult {
  switch (b.type) {
    case "status":
      return html`<p class="tool-status tone-${b.tone}" role=${b.tone === "critical" ? "alert" : "status"}>${TONE_SHAPE[b.tone] ? html`<span class="shape" aria-hidden="true">${TONE_SHAPE[b.tone]}</span> ` : nothing}<span dir="auto">${shown(b.text, CAPS.body)}</span></p>`;
    case "text":
      return html`<p class="tool-text" dir="auto">${shownLines(b.value, LONG)}</p>`;
    case "code": {
      const text = shownLines(b.text, LONG);
      return html`<div class="tool-code"><button type="button" class="button small copy" @click=${(e: Event) => copy(b.text, e.currentTarget as HTMLButtonElement)}>Copy</button><pre><code data-language=${shown(b.language ?? "", 40)}>${text}</code></pre></div>`;
    }
    case "table":
      return html`<table class="tool-table"><tbody>${b.rows.map((row) => {
        const href = safeHref(row.url);
        const value = formatValue(row.value, locale, now);
        return html`<tr><th scope="row" dir="auto">${shown(row.name, CAPS.label)}</th><td dir="auto">${href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${value}</a>` : value}</td></tr>`;
      })}</tbody></table>`;
    case "files":
      return html`<ul class="tool-files">${b.paths.map((path) => html`<li><code>${shown(path, CAPS.url)}</code></li>`)}</ul>`;
    case "image": {
      const dataUrl =
        "dataUrl" in b && typeof b.dataUrl === "string" && b.dataUrl.startsWith("data:image/") ? b.dataUrl : undefined;
      return dataUrl
        ? html`<img class="tool-image" src=${dataUrl} alt=${shown(b.path, CAPS.url)} />`
        : html`<p class="tool-files"><code>${shown(b.path, CAPS.url)}</code></p>`;
    }
    case "color": {
      const hex = /^#[0-9a-fA-F]{3,8}$/.test(b.hex) ? b.hex : "#000";
      // CSSOM, not a style attribute: the CSP blocks the attribute (lit's styleMap sets it on first render).
      const paint = (el?: Element) => (el as HTMLElement | undefined)?.style.setProperty("background-color", hex);
      return html`<p class="tool-color"><span class="swatch" role="img" aria-label=${`colour ${hex}`} ${ref(paint)}></span> <code>${hex}</code></p>`;
    }
  }
}

/**
 * @example
 * blocksView([{ type: "status", text: "Valid JSON", tone: "positive" }], "en-US", Date.now())
 */
export function blocksView(blocks: readonly PageBlock[], locale: string, now: number): TemplateResult {
  return html`<div class="tool-result">${blocks.map((b) => block(b, locale, now))}</div>`;
}
