/**
 * The preference values `svckit validate` runs with: what a fresh install has — each
 * option's default, else nothing (null), and never a password (the secret store is empty).
 */
import type { SvcManifest } from "@svc/api";

/**
 * @example
 * defaultPreferences(manifest.svc) // { apiUrl: null, apiToken: null, units: "metric" }
 */
export function defaultPreferences(svc: SvcManifest): Record<string, string | number | boolean | null> {
  const values: Record<string, string | number | boolean | null> = {};
  for (const preference of svc.preferences) {
    if (preference.type === "password") values[preference.name] = null;
    else values[preference.name] = preference.default ?? (preference.type === "checkbox" ? false : null);
  }
  return values;
}
