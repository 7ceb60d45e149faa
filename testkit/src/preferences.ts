/**
 * The preference values a test extension starts with.
 */
import type { SvcManifest } from "@svc/api";

/** Each declared option's value: the test's, else its default (a password has none). */
export function resolvePreferences(svc: SvcManifest, given: Record<string, unknown>): Record<string, unknown> {
  const declared = new Map(svc.preferences.map((p) => [p.name, p]));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) {
      const names = [...declared.keys()];
      throw new Error(
        `preference "${name}" is not declared in package.json (svc.preferences: ${names.length ? names.join(", ") : "none"})`,
      );
    }
  }
  const values: Record<string, unknown> = {};
  for (const preference of svc.preferences) {
    const fallback =
      preference.type === "password" ? null : (preference.default ?? (preference.type === "checkbox" ? false : null));
    values[preference.name] = Object.hasOwn(given, preference.name) ? given[preference.name] : fallback;
  }
  return values;
}
