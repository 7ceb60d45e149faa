/**
 * Block builders: what a tool's `run()` returns, drawn top to bottom in the notch. The text
 * block is the `text` value helper (same shape), exported from `values.ts`.
 */
import type {
  CodeBlock,
  ColorBlock,
  DisplayValue,
  FilesBlock,
  ImageBlock,
  StatusBlock,
  TableBlock,
  TableRow,
  Tone,
} from "../schemas/index.js";

/**
 * A one-line status. `tone`: `neutral` (default), `positive`, `warning` or `critical`.
 *
 * @example
 * status("Copied to the clipboard", "positive")
 * // { type: "status", text: "Copied to the clipboard", tone: "positive" }
 */
export function status(text: string, tone: Tone = "neutral"): StatusBlock {
  return { type: "status", text, tone };
}

/**
 * Monospaced text, optionally highlighted as `language`.
 *
 * @example
 * code(JSON.stringify(value, null, 2), "json")
 * // { type: "code", text: "{\n  \"ok\": true\n}", language: "json" }
 */
export function code(text: string, language?: string): CodeBlock {
  return language === undefined ? { type: "code", text } : { type: "code", text, language };
}

/**
 * Name/value rows, from an array of rows or from an object (its keys in order become names).
 * Values are typed values or bare strings and numbers; a row's `url` makes it a link.
 *
 * @example
 * table({ Algorithm: "HS256", Expires: date(payload.exp) })
 * // { type: "table", rows: [{ name: "Algorithm", value: "HS256" },
 * //   { name: "Expires", value: { type: "date", value: "2025-06-01T00:00:00.000Z" } }] }
 * table([{ name: "Docs", value: "RFC 7519", url: "https://www.rfc-editor.org/rfc/rfc7519" }])
 */
export function table(rows: readonly TableRow[] | Readonly<Record<string, DisplayValue>>): TableBlock {
  if (Array.isArray(rows)) return { type: "table", rows: rows.map((row) => ({ ...row })) };
  const record = rows as Readonly<Record<string, DisplayValue>>;
  return { type: "table", rows: Object.keys(record).map((name) => ({ name, value: record[name] })) };
}

/**
 * Files, by absolute path: ones the tool wrote inside `ctx.dataDir`, or ones the person gave it.
 *
 * @example
 * files([`${ctx.dataDir}/out.pdf`]) // { type: "files", paths: ["/…/Data/<id>/out.pdf"] }
 */
export function files(paths: string | readonly string[]): FilesBlock {
  return { type: "files", paths: typeof paths === "string" ? [paths] : [...paths] };
}

/**
 * An image file, by absolute path (inside `ctx.dataDir`, or one the person gave).
 *
 * @example
 * image(`${ctx.dataDir}/preview.png`) // { type: "image", path: "/…/Data/<id>/preview.png" }
 */
export function image(path: string): ImageBlock {
  return { type: "image", path };
}

/**
 * A colour swatch. The `#` is added when missing.
 *
 * @example
 * color("ff8800") // { type: "color", hex: "#ff8800" }
 */
export function color(hex: string): ColorBlock {
  const trimmed = hex.trim();
  return { type: "color", hex: trimmed.startsWith("#") ? trimmed : `#${trimmed}` };
}
