/**
 * The preference values an extension gets (`ctx.preferences`, `extension.load`'s
 * `preferences`): for each declared option, the stored value when it still fits the option,
 * else its `default`, else a neutral value for its kind. Where stored values come from is a
 * `PreferenceSource`: `PreferenceStore` (a file per extension plus the secret store for
 * passwords), or `defaultsOnly`.
 */
import type { Manifest, Preference } from "@svc/api";
import { valueProblem } from "./rules.js";

/** Where values a person chose come from. */
export interface PreferenceSource {
  /**
   * The stored values of one extension by preference name (passwords included); `{}` when
   * none. `manifest` says which options exist (and which are passwords).
   */
  values(extensionId: string, manifest?: Manifest): Promise<Record<string, unknown>>;
}

/** No stored values: every extension runs on its defaults. */
export const defaultsOnly: PreferenceSource = {
  values: async () => ({}),
};

/** The value a preference has when nobody set it: its `default`, else a neutral one for its kind. */
function fallback(preference: Preference): unknown {
  if (preference.default !== undefined) return preference.default;
  if (preference.type === "checkbox") return false;
  if (preference.type === "dropdown") return preference.data[0]?.value;
  return undefined;
}

/**
 * The resolved values: stored ones for declared names (when they fit the option), defaults for
 * the rest. Undeclared stored names are dropped; a preference with neither is left out.
 *
 * @example
 * await resolvePreferences(manifest, defaultsOnly); // { minutes: 25, sound: true }
 */
export async function resolvePreferences(
  manifest: Manifest,
  source: PreferenceSource = defaultsOnly,
): Promise<Record<string, unknown>> {
  const stored = await source.values(manifest.svc.id, manifest);
  const resolved: Record<string, unknown> = {};
  for (const preference of manifest.svc.preferences) {
    const storedValue = Object.hasOwn(stored, preference.name) ? stored[preference.name] : undefined;
    const usable = storedValue !== undefined && valueProblem(preference, storedValue) === undefined;
    const value = usable ? storedValue : fallback(preference);
    if (value !== undefined)
      Object.defineProperty(resolved, preference.name, { value, enumerable: true, writable: true, configurable: true });
  }
  return resolved;
}
