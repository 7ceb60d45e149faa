/**
 * Keys the manifest does not know. The SDK's schema passes over them (an app may meet a newer
 * manifest), so a typo like `"intervall"` would silently do nothing; svckit, the author's tool,
 * says so and suggests the key that was meant.
 */
import { nearestWord, permissionsSchema, svcManifestShape, triggersSchema } from "@svc/api";

const KNOWN: Record<string, readonly string[]> = {
  svc: [...Object.keys(svcManifestShape), "oauth"],
  "svc.triggers": Object.keys(triggersSchema.shape),
  "svc.permissions": Object.keys(permissionsSchema.shape),
};

/**
 * One line per unknown key of `svc`, `svc.triggers` and `svc.permissions`.
 *
 * @example
 * unknownManifestKeys({ svc: { id: "a.b", title: "T", intervall: "5m" } })
 * // ['package.json: "svc.intervall" is not a manifest key; did you mean "interval"?']
 */
export function unknownManifestKeys(packageJson: unknown): string[] {
  const problems: string[] = [];
  const at = (path: string): unknown =>
    path
      .split(".")
      .reduce<unknown>(
        (value, key) => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined),
        packageJson,
      );
  for (const [path, known] of Object.entries(KNOWN)) {
    const value = at(path);
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const meant = nearestWord(key, known);
      problems.push(
        `package.json: ${JSON.stringify(`${path}.${key}`)} is not a manifest key; ${meant ? `did you mean ${JSON.stringify(meant)}?` : `the keys here are ${known.join(", ")}`}`,
      );
    }
  }
  return problems;
}
