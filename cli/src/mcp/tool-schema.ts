/**
 * A tool's fields as the JSON Schema of an MCP tool's input (MCP "tools/list": `inputSchema`):
 * types, enums for choices, min/max, defaults and descriptions, so an agent can fill them in
 * without guessing.
 */
import type { Field } from "@svc/api";

export interface JsonSchema {
  type: string;
  description?: string;
  default?: unknown;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** What an agent is told about a file field: its paths wait for the person (host/README.md "Tools"). */
export const FILE_FIELD_NOTE =
  "Absolute file paths. The call waits until the person allows these files in svc's notch (up to about a minute); if they deny it, or do not answer, the tool does not run.";

function described(field: Field, extra: string[] = []): string | undefined {
  const parts = [field.label, field.placeholder ? `e.g. ${field.placeholder}` : undefined, ...extra].filter(Boolean);
  return parts.length > 0 ? parts.join(". ") : undefined;
}

/**
 * @example
 * fieldSchema({ id: "count", type: "number", min: 1, max: 9, default: 3, unit: "items" })
 * // { type: "number", minimum: 1, maximum: 9, default: 3, description: "In items" }
 */
export function fieldSchema(field: Field): JsonSchema {
  const schema = ((): JsonSchema => {
    switch (field.type) {
      case "text":
        return { type: "string", ...(field.default === undefined ? {} : { default: field.default }) };
      case "code":
        return { type: "string", ...(field.default === undefined ? {} : { default: field.default }) };
      case "toggle":
        return { type: "boolean", default: field.default ?? false };
      case "number":
        return {
          type: "number",
          ...(field.min === undefined ? {} : { minimum: field.min }),
          ...(field.max === undefined ? {} : { maximum: field.max }),
          ...(field.default === undefined ? {} : { default: field.default }),
        };
      case "choice":
        return { type: "string", enum: field.options.map((o) => o.id), default: field.default ?? field.options[0].id };
      case "pairs":
        return {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, value: { type: "string" } },
            required: ["name", "value"],
            additionalProperties: false,
          },
          ...(field.default === undefined ? {} : { default: field.default }),
        };
      case "file":
        return { type: "array", items: { type: "string" } };
    }
  })();
  const extra =
    field.type === "code" && field.language
      ? [`${field.language} code`]
      : field.type === "number" && field.unit
        ? [`In ${field.unit}`]
        : field.type === "choice"
          ? [`One of: ${field.options.map((o) => `${o.id} (${o.title})`).join(", ")}`]
          : field.type === "pairs"
            ? ["A list of name/value pairs"]
            : field.type === "file"
              ? [FILE_FIELD_NOTE]
              : [];
  const description = described(field, extra);
  return description ? { ...schema, description } : schema;
}

/** The whole input: one property per field, none required (each has a default), nothing else. */
export function inputSchema(fields: readonly Field[]): JsonSchema & { type: "object" } {
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((field) => [field.id, fieldSchema(field)])),
    additionalProperties: false,
  };
}
