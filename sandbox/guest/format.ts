/** Turns console arguments into one line of text, roughly as Node's util.format does. */

const MAX_DEPTH = 3;
const MAX_ITEMS = 50;

/**
 * @example formatArgs(["%s is %d", "x", 4, { a: 1 }]) // "x is 4 { a: 1 }"
 */
export function formatArgs(args: unknown[]): string {
  let rest = args;
  let head = "";
  if (typeof args[0] === "string" && args[0].includes("%")) {
    let i = 1;
    head = args[0].replace(/%([sdifjoO%])/g, (all, letter: string) => {
      if (letter === "%") return "%";
      if (i >= args.length) return all;
      const value = args[i++];
      if (letter === "s") return typeof value === "string" ? value : inspect(value, 1);
      if (letter === "d" || letter === "i") return String(letter === "i" ? parseInt(String(value)) : Number(value));
      if (letter === "f") return String(parseFloat(String(value)));
      if (letter === "j") return safeJson(value);
      return inspect(value, 0);
    });
    rest = args.slice(i);
  } else if (args.length > 0) {
    head = typeof args[0] === "string" ? args[0] : inspect(args[0], 0);
    rest = args.slice(1);
  }
  return [head, ...rest.map((v) => (typeof v === "string" ? v : inspect(v, 0)))].join(" ");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "[Circular]";
  }
}

/** A short readable picture of a value (no getters are called: own data properties only). */
export function inspect(value: unknown, depth: number, seen: unknown[] = []): string {
  switch (typeof value) {
    case "string":
      return depth === 0 ? value : JSON.stringify(value);
    case "bigint":
      return `${value}n`;
    case "function":
      return `[Function: ${value.name || "(anonymous)"}]`;
    case "symbol":
      return value.toString();
    case "object":
      break;
    default:
      return String(value);
  }
  if (value === null) return "null";
  if (value instanceof Error)
    return value.stack ? `${value.name}: ${value.message}\n${value.stack}` : `${value.name}: ${value.message}`;
  if (seen.includes(value)) return "[Circular]";
  if (depth > MAX_DEPTH) return Array.isArray(value) ? "[Array]" : "[Object]";
  if (value instanceof Date) return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  const inner = [...seen, value];
  const show = (v: unknown) => inspect(v, depth + 1, inner);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map(show);
    if (value.length > MAX_ITEMS) items.push(`... ${value.length - MAX_ITEMS} more items`);
    return `[ ${items.join(", ")} ]`;
  }
  const parts: string[] = [];
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Object.keys(descriptors).slice(0, MAX_ITEMS)) {
    const d = descriptors[key];
    const shown = "value" in d ? show(d.value) : "[Getter]";
    parts.push(`${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${shown}`);
  }
  return parts.length ? `{ ${parts.join(", ")} }` : "{}";
}
