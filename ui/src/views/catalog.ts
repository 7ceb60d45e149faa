/**
 * Settings → Add extensions: the packages that come with svc but are off until added. Each
 * shows its icon, title, one sentence and everything it can reach (the host computes that with
 * the install review's own function); Add opens the same install review as any `.svc`.
 */
import { html, nothing } from "lit";
import { CAPS, shown } from "../format/text.js";
import { iconElement } from "../icons/index.js";
import type { UiCatalog, UiCatalogPackage } from "../wire.js";

export interface CatalogContext {
  /** Undefined while it loads. */
  catalog: UiCatalog | undefined;
  /** The last problem loading it, for a person. */
  problem: string | undefined;
  busy: boolean;
  onAdd(name: string): void;
}

function packageView(item: UiCatalogPackage, ctx: CatalogContext) {
  const headingId = `catalog-${item.name}`;
  return html`<li class="catalog-item" data-catalog=${item.name} aria-labelledby=${headingId}>
    <span class="icon" aria-hidden="true">${item.icon === undefined ? nothing : iconElement(item.icon)}</span>
    <div class="catalog-text">
      <h3 id=${headingId} dir="auto">${shown(item.title, CAPS.title)}</h3>
      <p class="catalog-sentence" dir="auto">${shown(item.description, CAPS.body)}</p>
      ${
        item.reach.length
          ? html`<ul class="reach" aria-label=${`${shown(item.title, CAPS.title)} can reach`}>${item.reach.map(
              (r) =>
                html`<li class=${r.risk ? "risky" : ""}>${r.risk ? html`<strong>⚠ </strong>` : nothing}${shown(r.text, CAPS.body)}</li>`,
            )}</ul>`
          : html`<p class="sub">Reaches nothing outside svc.</p>`
      }
    </div>
    ${
      item.installed
        ? html`<span class="catalog-added">Added</span>`
        : html`<button type="button" class="button small" ?disabled=${ctx.busy} aria-describedby=${headingId}
            @click=${() => ctx.onAdd(item.name)}>Add…</button>`
    }
  </li>`;
}

export function catalogView(ctx: CatalogContext) {
  const packages = ctx.catalog?.packages ?? [];
  const problems = [...(ctx.problem ? [ctx.problem] : []), ...(ctx.catalog?.problems ?? [])];
  return html`<section class="card catalog" aria-labelledby="catalog-heading">
    <h2 id="catalog-heading">Add extensions</h2>
    ${
      ctx.catalog === undefined && !ctx.problem
        ? html`<p class="sub">Loading…</p>`
        : packages.length
          ? html`<p class="sub">They come with svc, signed by ${shown(packages[0].signedBy.words, 60)} (<code>${shown(packages[0].signedBy.fingerprint, 60)}</code>)${
              // The build says where its key came from: a release's (SVC_FIRST_PARTY_KEY) or its own.
              packages[0].signedBy.source === "SVC_FIRST_PARTY_KEY"
                ? ""
                : ", a key this copy of svc made for itself, not a release key"
            }. Each is reviewed before it is added.</p>
            <ul class="catalog-list" aria-label="Extensions to add">${packages.map((item) => packageView(item, ctx))}</ul>`
          : html`<p class="sub">Nothing to add: this svc was built without catalog packages.</p>`
    }
    ${problems.map((p) => html`<p class="problem">${shown(p, CAPS.body)}</p>`)}
  </section>`;
}
