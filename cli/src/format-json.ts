/**
 * JSON for a person reading a terminal: objects and arrays that fit on one line stay on one
 * line, bigger ones open up, one member per line. Payloads and result blocks read at a glance
 * instead of scrolling past in hundreds of two-character lines.
 */

/** Lines wider than this open up. */
const WIDTH = 100;

/**
 * @example
 * formatJson({ a: 1, b: [1, 2] })      // '{"a": 1, "b": [1, 2]}'
 * formatJson(bigPayload).split("\n")   // one line per member that does not fit
 */
export function formatJson(value: unknown, indent = ""): string {
  const flat = oneLine(value);
  if (flat.length + indent.length <= WIDTH || value === null || typeof value !== "object") return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value.map((item) => `${inner}${formatJson(item, inner)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => `${inner}${JSON.stringify(key)}: ${formatJson(member, inner)}`);
  return `{\n${members.join(",\n")}\n${indent}}`;
}

function oneLine(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => `${JSON.stringify(key)}: ${oneLine(member)}`);
  return `{${members.join(", ")}}`;
}
