/**
 * Install review: a `.svc` path (typed, or from a picked or dropped file when the desktop shell
 * can name its path), then what it is and everything it can reach, risky parts marked, and for
 * an update what it gains as a diff. Nothing changes until the person presses Install; the
 * installed version keeps running meanwhile.
 */
import { html, nothing } from "lit";
import { CAPS, shown, shownLines } from "../format/text.js";

export interface ReachLine {
  text: string;
  risk?: string;
}

export interface InstallSummaryView {
  id: string;
  title: string;
  version: string;
  reach: ReachLine[];
  risky: boolean;
  replaces?: { title: string; version: string; name: string; differentPackage: boolean; gained: ReachLine[] };
  text: string;
}

export interface InstallContext {
  review: { reviewId: string; summary: InstallSummaryView } | undefined;
  busy: boolean;
  /** The last problem or outcome, for a person. */
  message: string | undefined;
  /** Set when the desktop shell can turn a picked or dropped file into a path. */
  pathForFile: ((file: File) => string) | undefined;
  onReview(path: string): void;
  onDecide(accept: boolean): void;
}

function reachList(items: ReachLine[], label: string, mark?: string) {
  return html`<ul class="reach" aria-label=${label}>${items.map((r) => html`<li class=${r.risk ? "risky" : ""}>
    ${mark ? html`<span class="diff-mark">${mark} </span>` : nothing}${r.risk ? html`<strong>⚠ </strong>` : nothing}${shown(r.text, CAPS.body)}${r.risk ? html` — <em>${shown(r.risk, CAPS.body)}</em>` : nothing}</li>`)}</ul>`;
}

function reviewView(ctx: InstallContext) {
  const { summary } = ctx.review!;
  const update = summary.replaces;
  const description = summary.text.split("\n")[1] ?? "";
  return html`<div class="review" role="region" aria-label="install review">
    <h3>${shown(summary.title, CAPS.title)} ${shown(summary.version, 40)}</h3>
    <p class="sub">${shown(summary.id, CAPS.label)}</p>
    ${description && !description.startsWith("It can") ? html`<p dir="auto">${shownLines(description, 500)}</p>` : nothing}
    ${update
      ? html`<p class=${update.differentPackage ? "problem" : ""}>${update.differentPackage
          ? `This replaces "${shown(update.title, CAPS.label)}" ${shown(update.version, 40)} (package ${shown(update.name, CAPS.label)}), a different package with the same id.`
          : `This updates the installed ${shown(update.title, CAPS.label)} ${shown(update.version, 40)}. It stays as it is until you install.`}</p>
        ${update.gained.length
          ? html`<h4>Compared with ${shown(update.version, 40)}, it can now also</h4>${reachList(update.gained, "new reach", "+")}`
          : html`<p>It can reach nothing that ${shown(update.version, 40)} could not.</p>`}`
      : nothing}
    <h4>Everything it can reach</h4>
    ${summary.reach.length ? reachList(summary.reach, "reach") : html`<p>Nothing outside svc: no network, no files, no programs.</p>`}
    ${summary.risky ? html`<p class="problem">Parts marked ⚠ deserve a second look before you install.</p>` : nothing}
    <div class="actions">
      <button type="button" class="button primary" ?disabled=${ctx.busy} @click=${() => ctx.onDecide(true)}>${update ? "Update" : "Install"}</button>
      <button type="button" class="button" ?disabled=${ctx.busy} @click=${() => ctx.onDecide(false)}>Cancel</button>
    </div>
  </div>`;
}

export function installView(ctx: InstallContext) {
  const fromFile = (file: File | undefined) => {
    if (file && ctx.pathForFile) ctx.onReview(ctx.pathForFile(file));
  };
  return html`<section class="card install" aria-labelledby="install-heading"
      @dragover=${(e: DragEvent) => ctx.pathForFile && e.preventDefault()}
      @drop=${(e: DragEvent) => {
        if (!ctx.pathForFile) return;
        e.preventDefault();
        fromFile(e.dataTransfer?.files[0]);
      }}>
    <h2 id="install-heading">Install an extension</h2>
    ${ctx.review
      ? reviewView(ctx)
      : html`<form class="input-form" @submit=${(e: Event) => {
          e.preventDefault();
          const field = (e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>("input[type=text]")!;
          if (field.value.trim()) ctx.onReview(field.value.trim());
        }}>
          <label for="install-path">Path to a .svc file</label>
          <input id="install-path" type="text" placeholder="/home/you/Downloads/deploys-1.2.0.svc" spellcheck="false" />
          <button type="submit" class="button" ?disabled=${ctx.busy}>Review</button>
          ${ctx.pathForFile
            ? html`<label class="button">Choose a file… <input class="sr" type="file" accept=".svc" @change=${(e: Event) => fromFile((e.target as HTMLInputElement).files?.[0])} /></label>
                <span class="sub">or drop a .svc here</span>`
            : nothing}
        </form>`}
    ${ctx.message ? html`<p role="status" class=${ctx.message.startsWith("Installed") || ctx.message.startsWith("Updated") ? "saved" : "problem"}>${shown(ctx.message, CAPS.body)}</p>` : nothing}
  </section>`;
}
