/**
 * Reading a run or drop request against the tool's spec, before anything reaches the runtime.
 *
 * SPEC.md normalizes values before `run()` (a mistyped value falls back to the default, unknown
 * keys are dropped). That suits the notch, whose fields always send the right types; a script or
 * an agent that misspells a field or sends `"3"` for a number would silently get the default.
 * So the host's front door is stricter, then normalizes: an unknown key, a value of the wrong
 * type or a choice that is not an option is refused (400 naming the field); a missing field takes
 * its default; a number is clamped to min/max; a single-file field keeps its first file.
 */
import { isAbsolutePath, normalizeToolValues, type Field, type ToolSpec } from "@svc/api";
import { ToolError } from "./tool-error.js";

/** The action Return runs: the first declared, or `run` for a tool that declares none. */
export function defaultAction(spec: ToolSpec): string {
  return spec.actions[0]?.id ?? "run";
}

const quoted = (items: readonly string[]) => items.map((item) => JSON.stringify(item)).join(", ");

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Refuses keys of a request body other than `allowed`. */
function checkKeys(body: Record<string, unknown>, allowed: readonly string[], shape: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key))
      throw new ToolError("invalid", `${JSON.stringify(key)} is not part of the request: send ${shape}`);
  }
}

/**
 * The action of a run: absent → the default; else one of the tool's own.
 *
 * @example
 * resolveAction(spec, "minify") // "minify"
 */
export function resolveAction(spec: ToolSpec, action: unknown): string {
  if (action === undefined) return defaultAction(spec);
  const ids = spec.actions.length > 0 ? spec.actions.map((a) => a.id) : ["run"];
  if (typeof action !== "string" || !ids.includes(action)) {
    throw new ToolError(
      "invalid",
      `"action" should be one of ${quoted(ids)}; got ${JSON.stringify(action)?.slice(0, 80)}`,
    );
  }
  return action;
}

/** Why `value` does not fit `field`, or undefined when it does. */
function misfit(field: Field, value: unknown): string | undefined {
  switch (field.type) {
    case "text":
    case "code":
      return typeof value === "string" ? undefined : "should be a string";
    case "toggle":
      return typeof value === "boolean" ? undefined : "should be true or false";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "should be a number";
    case "choice": {
      const ids = field.options.map((o) => o.id);
      return typeof value === "string" && ids.includes(value) ? undefined : `should be one of ${quoted(ids)}`;
    }
    case "file":
      return Array.isArray(value) && value.every((p) => typeof p === "string" && isAbsolutePath(p))
        ? undefined
        : "should be a list of absolute paths";
    case "pairs":
      return Array.isArray(value) &&
        value.every((p) => isPlainObject(p) && typeof p.name === "string" && typeof p.value === "string")
        ? undefined
        : 'should be a list of {"name": string, "value": string}';
  }
}

/**
 * Checks `values` strictly, then normalizes them as the runtime will (defaults, clamping).
 *
 * @example
 * checkValues(spec, { input: "{}", indent: "tab" }) // { input: "{}", indent: "tab", escape: false }
 * checkValues(spec, { indnet: "tab" })               // throws 400: "values.indnet" is not a field of …
 */
export function checkValues(spec: ToolSpec, values: unknown): Record<string, unknown> {
  if (values === undefined) return normalizeToolValues(spec, {});
  if (!isPlainObject(values)) throw new ToolError("invalid", `"values" should be an object keyed by field id`);
  const fields = new Map(spec.fields.map((field) => [field.id, field]));
  for (const [key, value] of Object.entries(values)) {
    const field = fields.get(key);
    if (!field) {
      const known = spec.fields.length > 0 ? `its fields are ${quoted([...fields.keys()])}` : "it has no fields";
      throw new ToolError("invalid", `"values.${key}" is not a field of ${spec.title}: ${known}`);
    }
    const problem = misfit(field, value);
    if (problem) throw new ToolError("invalid", `"values.${key}" ${problem}`);
  }
  return normalizeToolValues(spec, values);
}

/**
 * A run request body: `{action?, values?}` (an empty body is `{}`).
 *
 * @example
 * readRunRequest(spec, { action: "minify", values: { input: "[1, 2]" } })
 */
export function readRunRequest(spec: ToolSpec, body: unknown): { action: string; values: Record<string, unknown> } {
  const request = body ?? {};
  if (!isPlainObject(request)) throw new ToolError("invalid", "the body should be an object: {action?, values}");
  checkKeys(request, ["action", "values"], "{action?, values}");
  return { action: resolveAction(spec, request.action), values: checkValues(spec, request.values) };
}

/**
 * A drop request body: `{action, files}`; `action` one of the tool's drop actions, `files` at
 * least its `minimumFiles` absolute paths.
 *
 * @example
 * readDropRequest(spec, { action: "hash", files: ["/Users/me/a.pdf"] })
 */
export function readDropRequest(spec: ToolSpec, body: unknown): { action: string; files: string[] } {
  if (!isPlainObject(body)) throw new ToolError("invalid", "the body should be an object: {action, files}");
  checkKeys(body, ["action", "files"], "{action, files}");
  const ids = spec.dropActions.map((a) => a.id);
  if (ids.length === 0) throw new ToolError("unknown", `${spec.title} takes no dropped files: it has no drop actions`);
  const drop = spec.dropActions.find((a) => a.id === body.action);
  if (!drop)
    throw new ToolError(
      "invalid",
      `"action" should be one of ${quoted(ids)}; got ${JSON.stringify(body.action)?.slice(0, 80)}`,
    );
  const { files } = body;
  if (!Array.isArray(files) || !files.every((p) => typeof p === "string" && isAbsolutePath(p))) {
    throw new ToolError("invalid", `"files" should be a list of absolute paths`);
  }
  if (files.length < drop.minimumFiles) {
    throw new ToolError(
      "invalid",
      `"files": ${drop.title} needs at least ${drop.minimumFiles} file${drop.minimumFiles === 1 ? "" : "s"}; got ${files.length}`,
    );
  }
  return { action: drop.id, files: files as string[] };
}

/** The file paths in normalized values, by field id (only non-empty file fields). */
export function fileValues(spec: ToolSpec, values: Record<string, unknown>): Array<{ field: string; paths: string[] }> {
  return spec.fields
    .filter((field) => field.type === "file")
    .map((field) => ({ field: field.id, paths: (values[field.id] as string[] | undefined) ?? [] }))
    .filter((entry) => entry.paths.length > 0);
}
