/**
 * `--field name=value` words into a tool's `values`, typed by the tool's fields, so a person
 * need not write JSON for a quick run:
 *
 * | field | `--field` | value |
 * |---|---|---|
 * | text, code, choice | `input=hello` | the text after the first `=` |
 * | number | `count=3` | a number (`3`, `-1.5`, `1e3`) |
 * | toggle | `pretty=true` | `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0` |
 * | file | `file=./a.png` (repeat for more) | absolute paths, relative ones read from the current folder |
 * | pairs | `headers=Accept: text/html` (repeat) | `name: value`, split at the first `:` |
 */
import { resolve } from "node:path";
import type { Field, ToolSpec } from "@svc/api";
import { CliError } from "../errors.js";

const TRUE = ["true", "yes", "on", "1"];
const FALSE = ["false", "no", "off", "0"];

function typed(field: Field, text: string, cwd: string): unknown {
  switch (field.type) {
    case "number": {
      const n = text.trim() === "" ? NaN : Number(text);
      if (!Number.isFinite(n)) throw CliError.usage(`--field ${field.id}=${text}: ${field.id} is a number`, "tool");
      return n;
    }
    case "toggle": {
      const word = text.trim().toLowerCase();
      if (TRUE.includes(word)) return true;
      if (FALSE.includes(word)) return false;
      throw CliError.usage(`--field ${field.id}=${text}: ${field.id} is a toggle: true or false`, "tool");
    }
    case "file":
      return resolve(cwd, text);
    case "pairs": {
      const at = text.indexOf(":");
      if (at < 1) throw CliError.usage(`--field ${field.id}=${text}: ${field.id} takes "name: value" pairs`, "tool");
      return { name: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
    }
    default:
      return text;
  }
}

/**
 * @example
 * valuesFromFields(spec, ["count=3", "file=a.png", "file=b.png"], "/Users/me")
 * // { count: 3, file: ["/Users/me/a.png", "/Users/me/b.png"] }
 * @throws CliError (usage) for a word without `=`, an unknown field or a value of the wrong kind.
 */
export function valuesFromFields(spec: ToolSpec, words: readonly string[], cwd: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const word of words) {
    const at = word.indexOf("=");
    if (at < 1) throw CliError.usage(`--field ${word}: write --field <name>=<value>`, "tool");
    const name = word.slice(0, at);
    const field = spec.fields.find((f) => f.id === name);
    if (!field) {
      const known =
        spec.fields.length > 0 ? `its fields are ${spec.fields.map((f) => f.id).join(", ")}` : "it has no fields";
      throw CliError.usage(`--field ${name}: ${spec.title} has no field "${name}"; ${known}`, "tool");
    }
    const value = typed(field, word.slice(at + 1), cwd);
    if (field.type === "file" || field.type === "pairs")
      values[name] = [...((values[name] as unknown[] | undefined) ?? []), value];
    else values[name] = value;
  }
  return values;
}
