/**
 * An AI agent asks to run a tool with file paths (host/src/tools/agent-files.ts): the notch shows
 * which agent, which tool and action, the files (real paths) and the call's other values, with
 * Allow and Deny; Allow takes no click for its first half second (model/allow-arming.ts). Drawn above the panel, so it shows whether the notch is open or compact; the
 * list is a polite live region, so a screen reader hears each new request without losing focus.
 * Every string in a request comes from a stranger and goes through the display-text rule.
 */
import { html, nothing, type TemplateResult } from "lit";
import { CAPS, shown } from "../format/text.js";
import type { UiAgentFilesRequest } from "../wire.js";

/** Paths are shown whole up to this length (a clipped path could hide what it names). */
const PATH_SHOWN = 1000;

export interface AgentFilesContext {
  locale: string;
  waiting: readonly UiAgentFilesRequest[];
  /** Requests whose answer is on its way. */
  answering: ReadonlySet<string>;
  /** Why the last answer did not go through, if it did not. */
  problem: string | undefined;
  /** Milliseconds until a request's Allow takes a click (model/allow-arming.ts); 0 once it does. */
  waitLeft(id: string): number;
  answer(id: string, allow: boolean): void;
}

const count = (n: number) => (n === 1 ? "1 file" : `${n} files`);

function request(r: UiAgentFilesRequest, ctx: AgentFilesContext): TemplateResult {
  const key = r.id.replace(/[^A-Za-z0-9_-]/g, "_");
  const busy = ctx.answering.has(r.id);
  // Just shown, or just moved under the pointer: Allow is off (visibly) and a click is dropped, not kept.
  const arming = ctx.waitLeft(r.id) > 0;
  const until = new Intl.DateTimeFormat(ctx.locale, { timeStyle: "medium" }).format(r.expiresAt);
  const tool = shown(r.toolTitle, CAPS.label);
  return html`<div class="agent-files-request" role="group" aria-labelledby=${`agent-files-${key}`} data-request=${r.id}>
    <h2 id=${`agent-files-${key}`}>An agent calling itself “<bdi>${shown(r.agent, CAPS.label)}</bdi>” asks to let ${tool} read ${count(r.files.length)}</h2>
    <p class="sub" dir="auto">${shown(r.extensionTitle, CAPS.label)} · ${tool} (${shown(r.tool, CAPS.label)}) · action ${shown(r.actionTitle, CAPS.label)}</p>
    <ul class="agent-files-list" aria-label="Files it would read">${r.files.map((path) => html`<li><code>${shown(path, PATH_SHOWN)}</code></li>`)}</ul>
    ${r.values === "{}" ? nothing : html`<p class="sub">With: <code>${shown(r.values, CAPS.body)}</code></p>`}
    <p class="sub">Allow lets ${tool} read these files for this one run. No answer by ${until} is a no.</p>
    <div class="actions">
      <button type="button" class="button primary" data-answer="allow" ?disabled=${busy || arming}
        @click=${() => ctx.waitLeft(r.id) === 0 && ctx.answer(r.id, true)}>Allow</button>
      <button type="button" class="button" data-answer="deny" ?disabled=${busy} @click=${() => ctx.answer(r.id, false)}>Deny</button>
    </div>
  </div>`;
}

/**
 * The waiting requests, oldest first. The region is always in the page (empty when nothing
 * waits), so assistive technology announces what appears in it.
 */
export function agentFilesView(ctx: AgentFilesContext): TemplateResult {
  return html`<section class="agent-files" aria-label="Agents asking for files" aria-live="polite">
    ${ctx.waiting.map((r) => request(r, ctx))}
    ${ctx.problem ? html`<p class="problem" role="alert">${shown(ctx.problem, CAPS.body)}</p>` : nothing}
  </section>`;
}
