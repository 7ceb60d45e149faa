/**
 * Preferences (SPEC.md "Preferences", `host.preferences.set`): the values passed on
 * `extension.load` (declared defaults, stored values, passwords from the secret store) and the
 * checked, saved changes that make the extension run again with trigger `preferences`.
 *
 * @example
 * const store = new PreferenceStore({ folder: preferencesFolder(root), secrets, onChanged });
 * const preferences = await resolvePreferences(manifest, store);
 */
export { resolvePreferences, defaultsOnly, type PreferenceSource } from "./resolve.js";
export {
  PreferenceStore,
  PreferenceRuleError,
  GrantNeededError,
  type GrantBook,
  type PreferenceStoreOptions,
  type ChangedBy,
} from "./preference-store.js";
export { preferencesFolder, preferenceFile, readPreferenceFile, writePreferenceFile } from "./preference-file.js";
export { valueProblem, PREFERENCE_TEXT_MAX_BYTES } from "./rules.js";
export { preferenceHandlers, type PreferenceHandlers } from "./handlers.js";
