/**
 * SPEC.md, "Values passed to a tool": before `run()` the runtime normalizes the values against
 * the spec so a tool can trust them. Every field is present and typed; a missing or mistyped
 * value falls back to the field's default, then to empty; numbers are clamped; a single-file
 * field keeps its first file; unknown keys are dropped.
 *
 * For list fields (file, pairs) a well-formed list keeps its well-formed entries: non-absolute
 * paths and malformed pairs are left out rather than losing the whole list.
 */
import type { Field, FieldValueMap, NumberField, Pair } from "../schemas/fields.js";
import { isAbsolutePath } from "../schemas/text.js";
import type { ToolSpec } from "../schemas/tool-spec.js";

/** Normalized values: one entry per field id. */
export type NormalizedToolValues = Record<string, FieldValueMap[keyof FieldValueMap]>;

/** Reads an own property without running anything that could throw on a hostile object. */
function ownValue(values: unknown, key: string): unknown {
  if (typeof values !== "object" || values === null || Array.isArray(values)) return undefined;
  try {
    const descriptor = Object.getOwnPropertyDescriptor(values, key);
    return descriptor && "value" in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

function clamp(n: number, field: NumberField): number {
  let out = n;
  if (field.max !== undefined && out > field.max) out = field.max;
  if (field.min !== undefined && out < field.min) out = field.min;
  return out;
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function paths(raw: unknown, multiple: boolean): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const kept = raw.filter((p): p is string => isString(p) && isAbsolutePath(p));
  return multiple ? kept : kept.slice(0, 1);
}

function pairs(raw: unknown): Pair[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.flatMap((entry: unknown) => {
    const name = ownValue(entry, "name");
    const value = ownValue(entry, "value");
    return isString(name) && isString(value) ? [{ name, value }] : [];
  });
}

/**
 * The value of one field: the given value if it has the field's type, else the default, else
 * the empty value of the type.
 *
 * @example
 * normalizeFieldValue({ id: "q", type: "number", min: 1, max: 9 }, 42) // 9
 */
export function normalizeFieldValue(field: Field, raw: unknown): FieldValueMap[keyof FieldValueMap] {
  switch (field.type) {
    case "text":
    case "code":
      return isString(raw) ? raw : (field.default ?? "");
    case "toggle":
      return typeof raw === "boolean" ? raw : (field.default ?? false);
    case "number": {
      const n = typeof raw === "number" && Number.isFinite(raw) ? raw : (field.default ?? field.min ?? 0);
      return clamp(n, field);
    }
    case "choice": {
      const ids = field.options.map((o) => o.id);
      if (isString(raw) && ids.includes(raw)) return raw;
      return field.default !== undefined && ids.includes(field.default) ? field.default : (ids[0] ?? "");
    }
    case "file":
      return paths(raw, field.multiple) ?? [];
    case "pairs":
      return pairs(raw) ?? (field.default ?? []).map((p) => ({ name: p.name, value: p.value }));
    default:
      return "";
  }
}

/**
 * Normalizes `values` against a decoded spec. Never throws, whatever `values` is.
 *
 * @example
 * normalizeToolValues(spec, { input: 5, junk: true }) // { input: "", pretty: false }
 */
export function normalizeToolValues(spec: Pick<ToolSpec, "fields">, values: unknown): NormalizedToolValues {
  if (!Array.isArray(spec?.fields)) return {};
  const entries = spec.fields.map(
    (field) => [field.id, normalizeFieldValue(field, ownValue(values, field.id))] as const,
  );
  // fromEntries defines own properties, so a field named "__proto__" stays a plain key.
  return Object.fromEntries(entries);
}
