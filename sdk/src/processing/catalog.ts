/**
 * Reading a bundled root's `bundled.json` and its `catalog/index.json` text: one message a
 * person can act on when either is wrong, naming the file and the field.
 */
import type { z } from "zod";
import { bundledListSchema, catalogIndexSchema, type BundledList, type CatalogIndex } from "../schemas/catalog.js";
import { formatIssues, safeParse } from "./issues.js";

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseFile<S extends z.ZodType>(schema: S, text: string, where: string, fix: string): Parsed<z.output<S>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${where} is not JSON: ${(error as Error).message}; ${fix}` };
  }
  const parsed = safeParse(schema, raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `${where}: ${formatIssues(parsed.error.issues, "the file").join("; ")}; ${fix}` };
}

/**
 * @example
 * parseBundledList('{"onByDefault":["focus"]}', "extensions/bundled.json") // { ok: true, value: { onByDefault: ["focus"] } }
 */
export function parseBundledList(text: string, where: string): Parsed<BundledList> {
  return parseFile(bundledListSchema, text, where, 'write it as {"onByDefault": ["focus", "system"]}');
}

/**
 * @example
 * parseCatalogIndex(text, "extensions/catalog/index.json").ok
 */
export function parseCatalogIndex(text: string, where: string): Parsed<CatalogIndex> {
  return parseFile(catalogIndexSchema, text, where, "build the catalog again: npm run build -w extensions");
}
