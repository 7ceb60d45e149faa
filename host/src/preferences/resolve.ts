/**
 * The preference values an extension gets (`ctx.preferences`, `extension.load`'s
 * `preferences`). Today they are the manifest defaults; the seam is `PreferenceSource`: the
 * settings store (and the secret store for `password` ones) plugs in there without touching the
 * callers.
 */
import type { Manifest } from "@svc/api";

/** Where values a person chose come from. */
export interface PreferenceSource {
  /** The stored values of one extension by preference name (secrets included); `{}` when none. */
  values(extensionId: string): Promise<Record<string, unknown>>;
}

/** No stored values yet: every extension runs on its defaults. */
export const defaultsOnly: PreferenceSource = {
  values: async () => ({}),
};

type Preference = Manifest["svc"]["preferences"][number];

/** The value a preference has when nobody set it: its `default`, else a neutral one for its kind. */
function fallback(preference: Preference): unknown {
  if (preference.default !== undefined) return preference.default;
  if (preference.type === "checkbox") return false;
  if (preference.type === "dropdown") return preference.data[0]?.value;
  return undefined;
}

/**
 * The resolved values: stored ones for declared names, defaults for the rest. Undeclared stored
 * names are dropped; a preference with neither is left out.
 *
 * @example
 * await resolvePreferences(manifest, defaultsOnly); // { minutes: 25, sound: true }
 */
export async function resolvePreferences(
  manifest: Manifest,
  source: PreferenceSource = defaultsOnly,
): Promise<Record<string, unknown>> {
  const stored = await source.values(manifest.svc.id);
  const resolved: Record<string, unknown> = {};
  for (const preference of manifest.svc.preferences) {
    const value = Object.hasOwn(stored, preference.name) ? stored[preference.name] : fallback(preference);
    if (value !== undefined) resolved[preference.name] = value;
  }
  return resolved;
}
