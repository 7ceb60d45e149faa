/**
 * Keys the manifest does not know. The SDK's schema passes over them (an app may meet a newer
 * manifest), so a typo like `"intervall"` would silently do nothing; svckit, the author's tool,
 * says so and suggests the key that was meant.
 */
import { permissionsSchema, svcManifestShape, triggersSchema } from "@svc/api";

const KNOWN: Record<string, readonly string[]> = {
  svc: [...Object.keys(svcManifestShape), "oauth"],
  "svc.triggers": Object.keys(triggersSchema.shape),
  "svc.permissions": Object.keys(permissionsSchema.shape),
};

/** Edit distance with transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known key `key` was most likely meant to be: close in spelling (case aside), else none.
 *
 * @example
 * suggestKey("intervall", ["id", "interval"]) // "interval"
 * suggestKey("colour", ["id", "interval"])    // undefined
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; cost: number } | undefined;
  for (const candidate of known) {
    const cost = distance(key.toLowerCase(), candidate.toLowerCase());
    if (cost <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || cost < best.cost))
      best = { key: candidate, cost };
  }
  return best?.key;
}

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
      const meant = suggestKey(key, known);
      problems.push(
        `package.json: ${JSON.stringify(`${path}.${key}`)} is not a manifest key; ${meant ? `did you mean ${JSON.stringify(meant)}?` : `the keys here are ${known.join(", ")}`}`,
      );
    }
  }
  return problems;
}
