/**
 * A tool's fields (SPEC.md "Field types"), every type, holding values in the shape `run()` gets.
 * In a plain browser there is no file path to read from a drop, so a file field takes typed
 * absolute paths, one per line: a path is a read grant, and here it comes from the person's typing.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { Field } from "@svc/api";
import { CAPS, shown } from "../format/text.js";

export type Values = Record<string, unknown>;

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
      return html`<textarea id=${id} rows=${field.multiple ? 3 : 1} placeholder=${field.multiple ? "Absolute paths, one per line" : "An absolute path"}
        .value=${((value as string[]) ?? []).join("\n")}
        @change=${(e: Event) => {
          const paths = (e.target as HTMLTextAreaElement).value.split("\n").map((p) => p.trim()).filter(Boolean);
          ctx.set(field.id, field.multiple ? paths : paths.slice(0, 1));
        }}></textarea><small class="hint">The tool may read the file you name, for this run.</small>`;
  }
}

export function fieldsView(fields: readonly Field[], ctx: FieldsContext): TemplateResult {
  return html`${fields.map((field) => {
    const id = `field-${ctx.toolId.replace(/[^A-Za-z0-9_-]/g, "_")}-${field.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    return html`<div class="tool-field field-${field.type}"><label for=${id}>${shown(field.label ?? field.id, CAPS.label)}</label>${input(field, ctx, id)}</div>`;
  })}`;
}
