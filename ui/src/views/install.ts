/**
 * Install review: a `.svc` file — dropped or chosen in the desktop shell (sent by handle: the
 * page never learns its path), its path typed (a plain browser gives the page no path), or its
 * https address typed (the host fetches it, and remembers it for "Check for updates") —
 * then what it is and everything it can reach, risky parts marked, and for an update what it
 * gains as a diff. Nothing changes until the person presses Install; the installed version keeps
 * running meanwhile.
 */
import { html, nothing } from "lit";
import { CAPS, shown, shownLines } from "../format/text.js";
import type { UiAuthor } from "../wire.js";

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
  replaces?: {
    title: string;
    version: string;
    name: string;
    differentPackage: boolean;
    gained: ReachLine[];
    /** What `svckit dev` links to, when the package replaces a dev link. */
    devLink?: string;
  };
  /** Who made it, as its manifest says (a claim; the signature's key is `author`). */
  madeBy?: string;
  /** Its tools, how often it runs, what its programs can do: the terminal's sentences. */
  notes: string[];
  text: string;
  /** Who signed it (host/src/install/author.ts); absent when reviewing an installed extension. */
  author?: UiAuthor;
  /** The https address it was fetched from (remembered for "Check for updates" once installed). */
  address?: string;
  /** Accepting an installed extension: how it differs from what was approved ("Changed on disk since you installed it: …"). */
  onDisk?: string;
}

export interface InstallContext {
  review: { reviewId: string; summary: InstallSummaryView } | undefined;
  busy: boolean;
  /** The last problem or outcome, for a person. */
  message: string | undefined;
  onReview(path: string): void;
  onDecide(accept: boolean): void;
  /** A `.svc` dropped on or chosen in the install area; present only in the desktop shell. */
  onGive?(files: readonly File[]): void;
}

function dropArea(give: (files: readonly File[]) => void, busy: boolean) {
  return html`<div class="drop-zone install-drop" aria-label="Drop a .svc file to review it"
      @dragover=${(e: DragEvent) => e.preventDefault()}
      @drop=${(e: DragEvent) => {
        e.preventDefault();
        e.stopPropagation(); // handled here, not again by the notch
        give([...(e.dataTransfer?.files ?? [])]);
      }}>
    Drop a .svc file here, or
    <button type="button" class="button small" ?disabled=${busy} @click=${(e: Event) => ((e.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}>Choose a .svc file…</button><input
      type="file" hidden accept=".svc" aria-label="Choose a .svc file"
      @change=${(e: Event) => {
        const input = e.target as HTMLInputElement;
        give([...(input.files ?? [])]);
        input.value = "";
      }} />
  </div>`;
}

function reachList(items: ReachLine[], label: string, mark?: string) {
  return html`<ul class="reach" aria-label=${label}>${items.map(
    (r) => html`<li class=${r.risk ? "risky" : ""}>
    ${mark ? html`<span class="diff-mark">${mark} </span>` : nothing}${r.risk ? html`<strong>⚠ </strong>` : nothing}${shown(r.text, CAPS.body)}${r.risk ? html` — <em>${shown(r.risk, CAPS.body)}</em>` : nothing}</li>`,
  )}</ul>`;
}

/** Who made it: the author's key as a person compares it, or the plain fact that nobody signed it. */
function authorView(author: InstallSummaryView["author"]) {
  if (!author) return nothing;
  if (!author.signed) return html`<p class="problem author">Unsigned: anyone could have made this.</p>`;
  const how = author.rotatedFrom
    ? author.lostKey
      ? `: a new key, which its author named when the installed version's key ${shown(author.rotatedFrom, 120)} was lost.`
      : `: a new key, which the installed version's key ${shown(author.rotatedFrom, 120)} handed this extension over to.`
    : author.newToYou
      ? ": new to you."
      : ": the same author as the installed version.";
  return html`<p class="author">Signed by key <code>${shown(author.fingerprint, 60)}</code>
    (<strong>${shown(author.words, 60)}</strong>)${how}</p>`;
}

function reviewView(ctx: InstallContext) {
  const { summary } = ctx.review!;
  const update = summary.replaces;
  const description = summary.text.split("\n")[1] ?? "";
  return html`<div class="review" role="region" aria-label="install review" tabindex="-1">
    <h3>${shown(summary.title, CAPS.title)} ${shown(summary.version, 40)}</h3>
    <p class="sub">${shown(summary.id, CAPS.label)}${summary.madeBy ? html` · by ${shown(summary.madeBy, CAPS.label)}` : nothing}</p>
    ${description && !description.startsWith("It can") && !description.startsWith("Signed by") && !description.startsWith("! Unsigned") ? html`<p dir="auto">${shownLines(description, 500)}</p>` : nothing}
    ${summary.address ? html`<p class="sub">Fetched from <code>${shown(summary.address, CAPS.body)}</code>; svc checks there for updates.</p>` : nothing}
    ${authorView(summary.author)}
    ${summary.onDisk ? html`<p class="problem">${shownLines(summary.onDisk, CAPS.body)}</p>` : nothing}
    ${
      update
        ? html`<p class=${update.differentPackage ? "problem" : ""}>${
            update.devLink
              ? `This replaces the dev link to ${shown(update.devLink, CAPS.body)} (svckit dev): the package's own copy takes its place; that folder stays.`
              : update.differentPackage
                ? `This replaces "${shown(update.title, CAPS.label)}" ${shown(update.version, 40)} (package ${shown(update.name, CAPS.label)}), a different package with the same id.`
                : `This updates the installed ${shown(update.title, CAPS.label)} ${shown(update.version, 40)}. It stays as it is until you install.`
          }</p>
        ${
          update.gained.length
            ? html`<h4>Compared with ${shown(update.version, 40)}, it can now also</h4>${reachList(update.gained, "new reach", "+")}`
            : html`<p>It can reach nothing that ${shown(update.version, 40)} could not.</p>`
        }`
        : nothing
    }
    <h4>Everything it can reach</h4>
    ${summary.reach.length ? reachList(summary.reach, "reach") : html`<p>Nothing outside svc: no network, no files, no programs.</p>`}
    ${summary.notes.map((note) => html`<p>${shown(note, CAPS.body)}</p>`)}
    ${summary.risky ? html`<p class="problem">Parts marked ⚠ deserve a second look before you install.</p>` : nothing}
    <div class="actions">
      <button type="button" class="button primary" ?disabled=${ctx.busy} @click=${() => ctx.onDecide(true)}>${update ? "Update" : "Install"}</button>
      <button type="button" class="button" ?disabled=${ctx.busy} @click=${() => ctx.onDecide(false)}>Cancel</button>
    </div>
  </div>`;
}

export function installView(ctx: InstallContext) {
  return html`<section class="card install" aria-labelledby="install-heading">
    <h2 id="install-heading">Install an extension</h2>
    ${
      ctx.review
        ? reviewView(ctx)
        : html`${ctx.onGive ? dropArea(ctx.onGive, ctx.busy) : nothing}<form class="input-form" @submit=${(
            e: Event,
          ) => {
            e.preventDefault();
            const field = (e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>("input[type=text]")!;
            if (field.value.trim()) ctx.onReview(field.value.trim());
          }}>
          <label for="install-path">${ctx.onGive ? "Or type the path of a .svc file" : "Path to a .svc file"}, or its https address</label>
          <input id="install-path" type="text" placeholder="/home/you/Downloads/deploys-1.2.0.svc or https://example.com/deploys-1.2.0.svc" spellcheck="false" />
          <button type="submit" class="button" ?disabled=${ctx.busy}>Review</button>
        </form>`
    }
    ${ctx.message ? html`<p role="status" class=${ctx.message.startsWith("Installed") || ctx.message.startsWith("Updated") ? "saved" : "problem"}>${shown(ctx.message, CAPS.body)}</p>` : nothing}
  </section>`;
}
