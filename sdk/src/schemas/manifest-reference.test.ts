/**
 * sdk/README.md's "The manifest reference" against the zod schema it documents, so neither can
 * drift: every key the schema knows is a row of the table, every row is a key the schema
 * knows, and the complete example parses and uses every key.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { manifestSchema, svcManifestSchema } from "./manifest.js";
import { CLIENT_SECRET_KEYS, REDIRECT_KEYS } from "./oauth.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const SECTION = README.slice(README.indexOf("\n## The manifest reference"));

/** Keys refused by the schema (kept in it only to say why): documented in a sentence, not as rows. */
const REFUSED = new Set<string>([...CLIENT_SECRET_KEYS, ...REDIRECT_KEYS]);

/**
 * Every key path below `schema`: `a`, `a.b`, `a[].b` for arrays of objects, `a.<provider>.b`
 * for records (the only record of objects in the manifest is `oauth`).
 */
function keyPaths(schema: z.ZodType, prefix: string): string[] {
  const def = (schema as z.core.$ZodType)._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "default":
    case "optional":
    case "nullable":
      return keyPaths(def.innerType as z.ZodType, prefix);
    case "pipe":
      return keyPaths(def.in as z.ZodType, prefix);
    case "array":
      return keyPaths(def.element as z.ZodType, `${prefix}[]`);
    case "record":
      return keyPaths(def.valueType as z.ZodType, prefix === "oauth" ? `${prefix}.<provider>` : `${prefix}.<key>`);
    case "union":
      return [...new Set((def.options as z.ZodType[]).flatMap((option) => keyPaths(option, prefix)))];
    case "object":
      return Object.entries(def.shape as Record<string, z.ZodType>)
        .filter(([key]) => !REFUSED.has(key))
        .flatMap(([key, value]) => {
          const path = prefix ? `${prefix}.${key}` : key;
          return [path, ...keyPaths(value, path)];
        });
    default:
      return [];
  }
}

/** The first cell of each row of the reference table: the documented key paths. */
function documentedKeys(): string[] {
  return [...SECTION.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]!);
}

/** Every key path a JSON value uses, named as `keyPaths` names them. */
function usedPaths(value: unknown, prefix: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => usedPaths(item, `${prefix}[]`));
  if (value === null || typeof value !== "object") return [];
  // The providers of `oauth` are names the author picks, not keys: `keyPaths` names them `<provider>`.
  if (prefix === "oauth") return Object.values(value).flatMap((inner) => usedPaths(inner, "oauth.<provider>"));
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...usedPaths(inner, path)];
  });
}

describe("sdk/README.md's manifest reference", () => {
  const schemaKeys = [...new Set(keyPaths(svcManifestSchema, ""))].filter(
    (key) => !key.startsWith("oauth.<provider>.params."),
  );

  it("has a row for every key of the svc schema, and no row the schema does not know", () => {
    // A sanity floor: the walk reaches the nested keys (a broken walk would make this pass vacuously).
    expect(schemaKeys).toEqual(
      expect.arrayContaining([
        "permissions.runAnyCommand",
        "preferences[].multiline",
        "preferences[].data[].value",
        "oauth.<provider>.scopeSeparator",
        "triggers.watch",
        "categories",
        "icon",
      ]),
    );
    expect([...documentedKeys()].sort()).toEqual([...schemaKeys].sort());
  });

  it("gives an example for every row", () => {
    for (const row of SECTION.matchAll(/^\| `([^`]+)` +\|(.*)\|(.*)\|$/gm)) {
      expect(row[3]!.trim(), row[1]).toMatch(/^`.+`$/);
    }
  });

  it("ends with a complete package.json that parses and uses every key", () => {
    const example = /```json\n([\s\S]*?)```/.exec(SECTION)?.[1];
    const parsed = JSON.parse(example!);
    expect(manifestSchema.safeParse(parsed).error).toBeUndefined();
    const used = new Set(usedPaths(parsed.svc, "").filter((key) => !key.startsWith("oauth.<provider>.params.")));
    expect([...used].sort()).toEqual([...schemaKeys].sort());
  });
});
