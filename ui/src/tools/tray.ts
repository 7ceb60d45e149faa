/**
 * The tools tray: every tool by category, searchable by title and summary; a tool opens in place
 * with its fields, actions (Return runs the first), a run in flight with Cancel, and its result
 * blocks. Live tools run the first action as the inputs change. Inputs are kept in memory only,
 * per tool, when the tool says `remembersInputs`. When the notch opens with clipboard text of a
 * kind some tools declare, those tools come first, the text filled into their first text field.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ClipboardKind, ToolSpec } from "@svc/api";
import type { Api } from "../api.js";
import { giveFiles, shellMessage, type ShellHooks } from "../shell.js";
import { CAPS, shown } from "../format/text.js";
import { blocksView, type PageBlock } from "./blocks-view.js";
import { clipboardKinds } from "./clipboard-kinds.js";
import { fieldsView, initialValue, wireValues, type FileValue, type Values } from "./fields-view.js";
import { LiveRuns } from "./live-runs.js";
import { loadRecent, noteRecent, recentTools, saveRecent } from "./recent.js";
import { iconElement } from "../icons/index.js";

/** A tool as `GET /api/tools` lists it (host/src/tools `ListedTool`). */
export interface PageTool extends ToolSpec {
  id: string;
  name: string;
  extensionId: string;
  extensionTitle: string;
  agents: boolean;
}

/** Whether a drop action's uniform type identifiers take this file (judged by its MIME type). */
export function accepts(types: readonly string[], file: { type: string; name: string }): boolean {
  const mime = file.type.toLowerCase();
  return types.some((uti) => {
    switch (uti) {
      case "public.item":
      case "public.data":
      case "public.content":
        return true;
      case "public.image":
        return mime.startsWith("image/");
      case "public.movie":
      case "public.video":
        return mime.startsWith("video/");
      case "public.audio":
        return mime.startsWith("audio/");
      case "public.text":
      case "public.plain-text":
        return mime.startsWith("text/");
      case "com.adobe.pdf":
        return mime === "application/pdf";
      case "public.json":
        return mime === "application/json";
      default:
        return false;
    }
  });
}

const CATEGORY_TITLES: Record<string, string> = {
  developer: "Developer",
  design: "Design",
  everyday: "Everyday",
  image: "Image",
  video: "Video",
  pdf: "PDF",
};

export class ToolsTray {
  tools: PageTool[] = [];
  query = "";
  openId: string | undefined;
  problem: string | undefined;
  private loaded = false;
  private clipboard: { text: string; kinds: ClipboardKind[] } | undefined;
  private readonly inputs = new Map<string, Values>();
  /** The run the Cancel button stops (its extension's `ctx.signal` is aborted). */
  private lastRun: { tool: string; runId: string } | undefined;
  private runCount = 0;
  private runs: LiveRuns<PageBlock[]> | undefined;

  private drop: { busy: boolean; message?: string; tone?: "positive" | "critical"; outputs?: string[] } = {
    busy: false,
  };
  /** Why a file field did not take the files given to it, by field id. */
  private readonly fieldProblems = new Map<string, string>();

  constructor(
    private readonly api: () => Api | undefined,
    private readonly changed: () => void,
    private readonly shell: () => ShellHooks = () => ({}),
  ) {}

  /** Fetches the list (again: the runtime's report replaces dist/tools.json's once code loads). */
  async refresh(): Promise<void> {
    const api = this.api();
    if (!api) return;
    try {
      const answer = await api.get<{ tools: PageTool[] }>("tools");
      this.tools = answer.tools;
      this.problem = undefined;
    } catch (error) {
      this.problem = (error as Error).message;
    }
    this.loaded = true;
    this.changed();
  }

  /** The notch opened: read the clipboard once, locally, for tools that take what it holds. */
  async noticeClipboard(read: () => Promise<string>): Promise<void> {
    try {
      const text = await read();
      const kinds = clipboardKinds(text);
      this.clipboard = kinds.length > 0 ? { text: text.trim(), kinds } : undefined;
    } catch {
      this.clipboard = undefined; // no permission, or nothing readable: no suggestion
    }
    this.changed();
  }

  /** Tool ids used lately, most recent first (`recent.ts`). */
  private recent = loadRecent(globalThis.localStorage);

  /**
   * Tools that read the clipboard's kind, first; then the recently used ones; then the rest by
   * category, filtered by the query. A tool is listed once.
   */
  ordered(): { suggested: PageTool[]; recent: PageTool[]; byCategory: Array<[string, PageTool[]]> } {
    const q = this.query.trim().toLowerCase();
    const matches = this.tools.filter(
      (t) => !q || t.title.toLowerCase().includes(q) || t.summary.toLowerCase().includes(q),
    );
    const kinds = this.clipboard?.kinds ?? [];
    const suggested = matches.filter((t) => t.clipboardKinds.some((k) => kinds.includes(k)));
    const recent = recentTools(matches, this.recent).filter((t) => !suggested.includes(t));
    const rest = matches.filter((t) => !suggested.includes(t) && !recent.includes(t));
    const groups = new Map<string, PageTool[]>();
    for (const tool of rest) groups.set(tool.category, [...(groups.get(tool.category) ?? []), tool]);
    return { suggested, recent, byCategory: [...groups] };
  }

  open(tool: PageTool, fromClipboard = false): void {
    this.runs?.dispose();
    this.drop = { busy: false };
    this.fieldProblems.clear();
    this.runs = new LiveRuns<PageBlock[]>(this.changed);
    this.openId = tool.id;
    this.recent = noteRecent(this.recent, tool.id);
    saveRecent(globalThis.localStorage, this.recent);
    const kept = tool.remembersInputs ? this.inputs.get(tool.id) : undefined;
    const values: Values = kept ?? Object.fromEntries(tool.fields.map((f) => [f.id, initialValue(f)]));
    if (fromClipboard && this.clipboard) {
      const target = tool.fields.find((f) => f.type === "text" || f.type === "code");
      if (target) values[target.id] = this.clipboard.text;
    }
    this.inputs.set(tool.id, values);
    this.changed();
    if (tool.live || fromClipboard) void this.run(tool);
  }

  close(): void {
    this.runs?.dispose();
    this.runs = undefined;
    const tool = this.current();
    if (tool && !tool.remembersInputs) this.inputs.delete(tool.id);
    this.openId = undefined;
    this.changed();
  }

  current(): PageTool | undefined {
    return this.tools.find((t) => t.id === this.openId);
  }

  /** Runs `action` (default: the first) with the current inputs; only the newest answer is shown. */
  run(tool: PageTool, action?: string, live = false): Promise<void> | void {
    const api = this.api();
    const runs = this.runs;
    if (!api || !runs) return;
    const values = wireValues(tool, this.inputs.get(tool.id) ?? {});
    const runId = `r${Date.now().toString(36)}-${++this.runCount}`;
    const body = { tool: tool.id, ...(action ? { action } : {}), values, runId };
    const work = async (signal: AbortSignal) => {
      this.lastRun = { tool: tool.id, runId };
      const { blocks } = await api.post<{ blocks: PageBlock[] }>("tools/run", body, signal);
      performance.mark("svc-tool-answer"); // bench/tools-ui.mjs measures the layout from here
      return blocks;
    };
    if (live) return runs.live(work);
    return runs.run(work);
  }

  private set(tool: PageTool, fieldId: string, value: unknown): void {
    const values = this.inputs.get(tool.id) ?? {};
    values[fieldId] = value;
    this.inputs.set(tool.id, values);
    if (tool.live) void this.run(tool, undefined, true);
  }

  /** Cancel: stop waiting, and ask the host to abort the run's `ctx.signal`. */
  cancel(): void {
    this.runs?.cancel();
    const run = this.lastRun;
    const api = this.api();
    if (run && api) void api.post("tools/cancel", run).catch(() => {});
  }

  /**
   * Files dropped on a drop action: checked against `accepts`, registered by the desktop shell, then `drop()` by
   * handle.
   */
  async dropFiles(tool: PageTool, actionId: string, files: readonly File[]): Promise<void> {
    const api = this.api();
    const shell = this.shell();
    const action = tool.dropActions.find((a) => a.id === actionId);
    if (!api || !shell.registerDroppedFile || !action) return;
    const taken = files.filter((file) => accepts(action.accepts, file));
    if (taken.length < action.minimumFiles) {
      this.drop = {
        busy: false,
        tone: "critical",
        message: `${action.title} needs at least ${action.minimumFiles} file${action.minimumFiles === 1 ? "" : "s"} it accepts; got ${taken.length}`,
      };
      return this.changed();
    }
    this.drop = { busy: true };
    this.changed();
    try {
      const given = await giveFiles(shell, taken);
      const answer = await api.post<{ message: string; outputs: string[]; copiedText?: string }>("tools/drop", {
        tool: tool.id,
        action: action.id,
        handles: given.map((f) => f.handle),
      });
      if (answer.copiedText !== undefined) {
        const copy = shell.copyText;
        if (copy) void Promise.resolve(copy(answer.copiedText)).catch(() => {});
        else void navigator.clipboard?.writeText(answer.copiedText).catch(() => {});
      }
      this.drop = { busy: false, tone: "positive", message: answer.message, outputs: answer.outputs };
    } catch (error) {
      this.drop = { busy: false, tone: "critical", message: (error as Error).message };
    }
    this.changed();
  }

  /** A file the drop action made, opened by the desktop shell (or shown in its folder); a refusal is said. */
  async openOutput(path: string): Promise<void> {
    const open = this.shell().openFile;
    if (!open) return;
    try {
      await open(path);
    } catch (error) {
      this.drop = { ...this.drop, tone: "critical", message: shellMessage(error) };
      this.changed();
    }
  }

  /** Files dropped on or picked for a file field: registered by the desktop shell, kept by handle. */
  async giveToField(tool: PageTool, fieldId: string, files: readonly File[]): Promise<void> {
    const field = tool.fields.find((f) => f.id === fieldId);
    if (!field || field.type !== "file" || files.length === 0) return;
    // Only files of the field's types are given (a grant the tool did not ask for is none to give).
    const taken = files.filter((file) => accepts(field.types, file));
    if (taken.length === 0) {
      this.fieldProblems.set(
        fieldId,
        `${field.label ?? field.id} takes ${field.types.join(", ")} files; got ${files.map((f) => f.name).join(", ")}`,
      );
      return this.changed();
    }
    try {
      const given = await giveFiles(this.shell(), field.multiple ? taken : taken.slice(0, 1));
      const kept = (this.inputs.get(tool.id)?.[fieldId] as FileValue[] | undefined) ?? [];
      this.fieldProblems.delete(fieldId);
      this.set(tool, fieldId, field.multiple ? [...kept, ...given] : given);
    } catch (error) {
      this.fieldProblems.set(fieldId, (error as Error).message);
    }
    this.changed();
  }

  render(locale: string, now: number): TemplateResult {
    if (!this.loaded) {
      void this.refresh();
      return html`<p class="empty">Loading tools…</p>`;
    }
    const tool = this.current();
    return tool ? this.renderTool(tool, locale, now) : this.renderList();
  }

  private renderList(): TemplateResult {
    const { suggested, recent, byCategory } = this.ordered();
    const item = (
      t: PageTool,
      fromClipboard = false,
    ) => html`<li><button type="button" class="tool-item" data-tool=${t.id} @click=${() => this.open(t, fromClipboard)}>
      <span class="icon" aria-hidden="true">${t.icon === undefined ? nothing : iconElement(t.icon)}</span><strong dir="auto">${shown(t.title, CAPS.title)}</strong>${t.summary ? html`<span class="summary" dir="auto">${shown(t.summary, CAPS.subtitle)}</span>` : nothing}</button></li>`;
    return html`<div class="tools">
      <input type="search" class="tool-search" aria-label="Search tools" placeholder="Search tools" .value=${this.query}
        @input=${(e: Event) => {
          this.query = (e.target as HTMLInputElement).value;
          this.changed();
        }} />
      ${this.problem ? html`<p class="problem" role="alert">${shown(this.problem, CAPS.body)}</p>` : nothing}
      ${suggested.length > 0 ? html`<section class="tool-group suggested" aria-label="For what you copied"><h2>For what you copied</h2><ul>${suggested.map((t) => item(t, true))}</ul></section>` : nothing}
      ${recent.length > 0 ? html`<section class="tool-group recent" aria-label="Recent"><h2>Recent</h2><ul>${recent.map((t) => item(t))}</ul></section>` : nothing}
      ${byCategory.map(([category, tools]) => html`<section class="tool-group" aria-label=${CATEGORY_TITLES[category] ?? category}><h2>${CATEGORY_TITLES[category] ?? shown(category, 40)}</h2><ul>${tools.map((t) => item(t))}</ul></section>`)}
      ${suggested.length === 0 && recent.length === 0 && byCategory.length === 0 ? html`<p class="empty">${this.tools.length === 0 ? "No tools yet: extensions with tools show them here." : "No tool matches."}</p>` : nothing}
    </div>`;
  }

  private renderTool(tool: PageTool, locale: string, now: number): TemplateResult {
    const state = this.runs?.state ?? { running: false };
    const values = this.inputs.get(tool.id) ?? {};
    const actions = tool.actions.length > 0 ? tool.actions : [{ id: "run", title: "Run", role: "primary" as const }];
    const submit = (e: Event) => {
      e.preventDefault();
      void this.run(tool, actions[0].id);
    };
    return html`<div class="tool-open" data-open-tool=${tool.id}>
      <div class="tool-head"><button type="button" class="button small" @click=${() => this.close()} aria-label="Back to all tools">←</button>
        <h2 dir="auto">${shown(tool.title, CAPS.title)}</h2>${tool.live ? html`<span class="mark">live</span>` : nothing}</div>
      ${tool.summary ? html`<p class="summary" dir="auto">${shown(tool.summary, CAPS.subtitle)}</p>` : nothing}
      <form class="tool-form" @submit=${submit} @keydown=${(e: KeyboardEvent) => {
        // Return in a one-line field runs the first action; Cmd/Ctrl+Return does in a text area.
        if (e.key === "Enter" && (e.metaKey || e.ctrlKey) && (e.target as HTMLElement).tagName === "TEXTAREA")
          submit(e);
      }}>
        ${fieldsView(tool.fields, {
          toolId: tool.id,
          values,
          set: (id, value) => this.set(tool, id, value),
          redraw: () => this.changed(),
          ...(this.shell().registerDroppedFile
            ? { give: (id: string, files: readonly File[]) => void this.giveToField(tool, id, files) }
            : {}),
          problems: this.fieldProblems,
        })}
        <div class="tool-actions">${actions.map(
          (
            a,
            i,
          ) => html`<button type=${i === 0 ? "submit" : "button"} class="button ${a.role === "primary" ? "primary" : a.role === "destructive" ? "destructive" : ""}"
          data-action=${a.id} @click=${i === 0 ? nothing : () => void this.run(tool, a.id)}>${shown(a.title, CAPS.label)}</button>`,
        )}</div>
      </form>
      ${state.running ? html`<p class="tool-running" role="status"><span class="spinner" aria-hidden="true"></span> Running… <button type="button" class="button small" @click=${() => this.cancel()}>Cancel</button></p>` : nothing}
      ${state.error ? html`<p class="tool-status tone-critical" role="alert"><span class="shape" aria-hidden="true">✖</span> <span dir="auto">${shown(state.error, CAPS.body)}</span></p>` : nothing}
      ${state.answer ? blocksView(state.answer, locale, now) : nothing}
      ${tool.dropActions.length > 0 ? this.renderDrops(tool) : nothing}
    </div>`;
  }

  private renderDrops(tool: PageTool): TemplateResult {
    const canDrop = Boolean(this.shell().registerDroppedFile);
    const d = this.drop;
    return html`<div class="tool-drops">
      ${tool.dropActions.map(
        (a) => html`<div class="drop-zone" data-drop=${a.id} aria-label=${`Drop files to ${a.title}`}
        @dragover=${(e: DragEvent) => canDrop && e.preventDefault()}
        @drop=${(e: DragEvent) => {
          if (!canDrop) return;
          e.preventDefault();
          e.stopPropagation(); // not also an install drop on the notch
          void this.dropFiles(tool, a.id, [...(e.dataTransfer?.files ?? [])]);
        }}>${canDrop ? html`Drop files here: ${shown(a.title, CAPS.label)}` : html`${shown(a.title, CAPS.label)}: drop files on this tool in the svc app (a browser gives the page no file paths)`}</div>`,
      )}
      ${d.busy ? html`<p class="tool-running" role="status"><span class="spinner" aria-hidden="true"></span> Working on the files…</p>` : nothing}
      ${d.message ? html`<p class="tool-status tone-${d.tone}" role=${d.tone === "critical" ? "alert" : "status"}><span class="shape" aria-hidden="true">${d.tone === "critical" ? "✖" : "✔"}</span> <span dir="auto">${shown(d.message, CAPS.body)}</span></p>` : nothing}
      ${d.outputs?.length ? html`<ul class="tool-files">${d.outputs.map((path) => html`<li><code>${shown(path, CAPS.url)}</code>${this.shell().openFile ? html` <button type="button" class="button small" aria-label=${`Open ${shown(path, CAPS.url)}`} @click=${() => void this.openOutput(path)}>Open</button>` : nothing}</li>`)}</ul>` : nothing}
    </div>`;
  }
}
