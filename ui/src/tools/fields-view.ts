/**
 * A tool's fields (SPEC.md "Field types"), every type, holding values in the shape `run()` gets.
 * A file field takes typed absolute paths, one per line (a path is a read grant, and here it
 * comes from the person's typing). In the desktop shell it also takes files dropped on it or
 * chosen with its picker: the shell registers them with the host and the page keeps only their
 * handles and names (UI.md "File paths"). A plain browser gives the page no path, so there it
 * takes typed paths only.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { Field, ToolSpec } from "@svc/api";
import { CAPS, shown } from "../format/text.js";
import type { GivenFile } from "../shell.js";

export type Values = Record<string, unknown>;

/** One file of a file field: a typed absolute path, or a file given through the shell. */
export type FileValue = string | GivenFile;

const isGiven = (item: FileValue): item is GivenFile => typeof item === "object" && item !== null;

/**
 * The values as the host takes them: a given file goes as `{handle}` (its name stays here).
 *
 * @example
 * wireValues(spec, { file: ["/a.txt", { handle: "h", name: "b.txt" }] }) // { file: ["/a.txt", { handle: "h" }] }
 */
export function wireValues(spec: Pick<ToolSpec, "fields">, values: Values): Values {
  const wire: Values = { ...values };
  for (const field of spec.fields) {
    const value = wire[field.id];
    if (field.type === "file" && Array.isArray(value))
      wire[field.id] = (value as FileValue[]).map((item) => (isGiven(item) ? { handle: item.handle } : item));
  }
  return wire;
}

/** The value a field starts with: its default, else the empty value of its type. */
export function initialValue(field: Field): unknown {
  switch (field.type) {
    case "text":
    case "code":
      return field.default ?? "";
    case "toggle":
      return field.default ?? false;
    case "number":
      return field.default ?? field.min ?? 0;
    case "choice":
      return field.default ?? field.options[0]?.id ?? "";
    case "pairs":
      return field.default ?? [];
    case "file":
      return [];
  }
}

/** `name: value` lines ⇄ pairs. */
export function pairsFromText(text: string): Array<{ name: string; value: string }> {
  return text.split("\n").flatMap((line) => {
    const at = line.indexOf(":");
    return at > 0 ? [{ name: line.slice(0, at).trim(), value: line.slice(at + 1).trim() }] : [];
  });
}

export interface FieldsContext {
  toolId: string;
  values: Values;
  set(fieldId: string, value: unknown): void;
  /** Draws the fields again (after a change the field itself does not show, like a removed file). */
  redraw(): void;
  /** Files dropped on or chosen for a file field; present only in the desktop shell. */
  give?(fieldId: string, files: readonly File[]): void;
  /** Why a file field did not take what it was given, by field id. */
  problems?: ReadonlyMap<string, string>;
}

function fileInput(field: Extract<Field, { type: "file" }>, ctx: FieldsContext, id: string): TemplateResult {
  const items = (ctx.values[field.id] as FileValue[] | undefined) ?? [];
  const typed = items.filter((item): item is string => !isGiven(item));
  const given = items.filter(isGiven);
  const give = ctx.give;
  const problem = ctx.problems?.get(field.id);
  const onTyped = (e: Event) => {
    const paths = (e.target as HTMLTextAreaElement).value
      .split("\n")
      .map((p) => p.trim())
      .filter(Boolean);
    // One file: what was typed replaces a given file; several: typed and given files together.
    ctx.set(field.id, field.multiple ? [...paths, ...given] : paths.length > 0 ? paths.slice(0, 1) : given);
  };
  const remove = (file: GivenFile) => {
    ctx.set(
      field.id,
      items.filter((item) => item !== file),
    );
    ctx.redraw();
  };
  return html`<div class="file-input ${give ? "takes-drops" : ""}"
      @dragover=${(e: DragEvent) => give && e.preventDefault()}
      @drop=${(e: DragEvent) => {
        if (!give) return;
        e.preventDefault();
        e.stopPropagation(); // not also an install drop on the notch
        give(field.id, [...(e.dataTransfer?.files ?? [])]);
      }}>
    <textarea id=${id} rows=${field.multiple ? 3 : 1} placeholder=${field.multiple ? "Absolute paths, one per line" : "An absolute path"}
      .value=${typed.join("\n")} @change=${onTyped}></textarea>
    ${
      give
        ? html`<button type="button" class="button small" @click=${(e: Event) => ((e.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}>Choose ${field.multiple ? "files" : "a file"}…</button><input type="file" hidden ?multiple=${field.multiple} aria-label=${`Choose ${field.multiple ? "files" : "a file"} for ${field.label ?? field.id}`}
          @change=${(e: Event) => {
            const input = e.target as HTMLInputElement;
            give(field.id, [...(input.files ?? [])]);
            input.value = "";
          }} />`
        : nothing
    }
    ${
      given.length > 0
        ? html`<ul class="given-files" aria-label="Files given">${given.map(
            (file) => html`<li><span dir="auto">${shown(file.name, CAPS.label)}</span>
          <button type="button" class="button small" aria-label=${`Remove ${shown(file.name, CAPS.label)}`} @click=${() => remove(file)}>✕</button></li>`,
          )}</ul>`
        : nothing
    }
    ${problem ? html`<p class="problem" role="alert">${shown(problem, CAPS.body)}</p>` : nothing}
    <small class="hint">${give ? "Drop files here, choose them, or type a path. " : ""}The tool may read the file you give, for this run.</small>
  </div>`;
}

function input(field: Field, ctx: FieldsContext, id: string): TemplateResult {
  const value = ctx.values[field.id];
  const placeholder = shown(field.placeholder ?? "", CAPS.label);
  switch (field.type) {
    case "text":
      return html`<input id=${id} type="text" .value=${String(value ?? "")} placeholder=${placeholder} @input=${(e: Event) => ctx.set(field.id, (e.target as HTMLInputElement).value)} />`;
    case "code":
      return html`<textarea id=${id} class="code" rows="6" spellcheck="false" data-language=${shown(field.language ?? "", 40)} .value=${String(value ?? "")} placeholder=${placeholder}
        @input=${(e: Event) => ctx.set(field.id, (e.target as HTMLTextAreaElement).value)}></textarea>`;
    case "toggle":
      return html`<input id=${id} type="checkbox" .checked=${value === true} @change=${(e: Event) => ctx.set(field.id, (e.target as HTMLInputElement).checked)} />`;
    case "number":
      return html`<input id=${id} type="number" .value=${String(value ?? "")} min=${field.min ?? nothing} max=${field.max ?? nothing} step=${field.step ?? "any"}
        @input=${(e: Event) => {
          const n = (e.target as HTMLInputElement).valueAsNumber;
          if (Number.isFinite(n)) ctx.set(field.id, n);
        }} />${field.unit ? html` <span class="unit">${shown(field.unit, 20)}</span>` : nothing}`;
    case "choice":
      return html`<select id=${id} @change=${(e: Event) => ctx.set(field.id, (e.target as HTMLSelectElement).value)}>${field.options.map(
        (o) => html`<option value=${o.id} ?selected=${o.id === value}>${shown(o.title, CAPS.label)}</option>`,
      )}</select>`;
    case "pairs":
      return html`<textarea id=${id} rows="3" placeholder="Name: value (one per line)" .value=${((value as Array<{ name: string; value: string }>) ?? []).map((p) => `${p.name}: ${p.value}`).join("\n")}
        @change=${(e: Event) => ctx.set(field.id, pairsFromText((e.target as HTMLTextAreaElement).value))}></textarea>`;
    case "file":
      return fileInput(field, ctx, id);
  }
}

export function fieldsView(fields: readonly Field[], ctx: FieldsContext): TemplateResult {
  return html`${fields.map((field) => {
    const id = `field-${ctx.toolId.replace(/[^A-Za-z0-9_-]/g, "_")}-${field.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    return html`<div class="tool-field field-${field.type}"><label for=${id}>${shown(field.label ?? field.id, CAPS.label)}</label>${input(field, ctx, id)}</div>`;
  })}`;
}
