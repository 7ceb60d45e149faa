/**
 * Tool spec decode and encode (SPEC.md, "Tool spec"). Decode fills every default; encode writes
 * the canonical form: every default spelled out, keys in one fixed order, so the same tool
 * always serializes to the same bytes.
 */
import type { Field } from "../schemas/fields.js";
import { toolSpecSchema, type DropAction, type ToolAction, type ToolSpec } from "../schemas/tool-spec.js";
import { formatIssues, safeParse } from "./issues.js";

export type DecodedToolSpec =
  | { ok: true; spec: ToolSpec }
  /** `error`: the first problem, e.g. `"title" should be at most 32 characters`; `errors`: all. */
  | { ok: false; error: string; errors: string[] };

/**
 * Validates a raw tool spec and fills every default. Never throws.
 *
 * @example
 * decodeToolSpec({ id: "b64", title: "Base64", icon: "textformat" })
 * // { ok: true, spec: { id: "b64", …, summary: "", category: "everyday", fields: [], … } }
 */
export function decodeToolSpec(raw: unknown): DecodedToolSpec {
  const parsed = safeParse(toolSpecSchema, raw);
  if (parsed.success) return { ok: true, spec: canonicalSpec(parsed.data) };
  const errors = formatIssues(parsed.error.issues, "tool spec");
  return { ok: false, error: errors[0] ?? "tool spec is not valid", errors };
}

/** Thrown by {@link encodeToolSpec} for a spec that does not decode. */
export class ToolSpecError extends Error {
  override readonly name = "ToolSpecError";
  constructor(
    message: string,
    readonly errors: string[],
  ) {
    super(message);
  }
}

/**
 * The canonical form of a tool spec: decoded (so every default is spelled out) and rebuilt in
 * a fixed key order. Accepts a spec as written or one already decoded; throws
 * {@link ToolSpecError} when it is not valid.
 *
 * @example
 * JSON.stringify(encodeToolSpec({ icon: "xmark", title: "X", id: "x" }))
 * // '{"id":"x","title":"X","icon":"xmark","summary":"","category":"everyday","fields":[],…}'
 */
export function encodeToolSpec(spec: unknown): ToolSpec {
  const decoded = decodeToolSpec(spec);
  if (!decoded.ok) throw new ToolSpecError(`invalid tool spec: ${decoded.error}`, decoded.errors);
  return decoded.spec;
}

/** Puts present keys in `order` first, skipping ones left out. */
function ordered<T extends object>(source: T, order: readonly (keyof T)[]): T {
  const out: Partial<T> = {};
  for (const key of order) if (source[key] !== undefined) out[key] = source[key];
  return out as T;
}

const FIELD_EXTRA_KEYS: { [K in Field["type"]]: readonly string[] } = {
  text: [],
  code: ["language"],
  file: ["types", "multiple"],
  choice: ["options"],
  toggle: [],
  number: ["min", "max", "step", "unit"],
  pairs: [],
};

function canonicalField(field: Field): Field {
  const order = ["id", "type", "label", "placeholder", "default", ...FIELD_EXTRA_KEYS[field.type]] as (keyof Field)[];
  const out = ordered(field, order);
  if (field.type === "choice") {
    (out as typeof field).options = field.options.map((o) => ({ id: o.id, title: o.title }));
  }
  if (field.type === "pairs" && field.default) {
    (out as typeof field).default = field.default.map((p) => ({ name: p.name, value: p.value }));
  }
  if (field.type === "file") (out as typeof field).types = [...field.types];
  return out;
}

function canonicalAction(action: ToolAction): ToolAction {
  return ordered(action, ["id", "title", "icon", "role"]);
}

function canonicalDropAction(drop: DropAction): DropAction {
  return { ...ordered(drop, ["id", "title", "icon", "accepts", "minimumFiles"]), accepts: [...drop.accepts] };
}

function canonicalSpec(spec: ToolSpec): ToolSpec {
  return {
    id: spec.id,
    title: spec.title,
    icon: spec.icon,
    summary: spec.summary,
    category: spec.category,
    fields: spec.fields.map(canonicalField),
    actions: spec.actions.map(canonicalAction),
    live: spec.live,
    remembersInputs: spec.remembersInputs,
    dropActions: spec.dropActions.map(canonicalDropAction),
    clipboardKinds: [...spec.clipboardKinds],
  };
}
