/**
 * `host.preferences.set` (SPEC.md "Runtime to host requests"): an extension changes one of its
 * own options as if in Settings. The store announces the change (`onChanged`); the host core
 * then runs `update()` with trigger `preferences`.
 */
import type { Manifest } from "@svc/api";
import type { HostPreferencesSet, ParamsOf, ResultOf } from "@svc/runtime";
import { answering } from "../secrets/index.js";
import { PreferenceRuleError, type PreferenceStore } from "./preference-store.js";

export interface PreferenceHandlers {
  preferencesSet: (params: ParamsOf<typeof HostPreferencesSet>) => Promise<ResultOf<typeof HostPreferencesSet>>;
}

/**
 * @example
 * const { preferencesSet } = preferenceHandlers(store, (id) => extensions.manifest(id));
 */
export function preferenceHandlers(
  store: PreferenceStore,
  manifestOf: (extensionId: string) => Manifest | undefined,
): PreferenceHandlers {
  return {
    preferencesSet: answering(async ({ extensionId, name, value }) => {
      const manifest = manifestOf(extensionId);
      if (!manifest) throw new PreferenceRuleError(`no extension "${extensionId}" is loaded`);
      // An absent value is not a value of any kind: only null clears.
      if (value === undefined) throw new PreferenceRuleError(`"${name}" needs a value; null clears it`);
      await store.change(manifest, name, value, "extension");
      return {};
    }),
  };
}
