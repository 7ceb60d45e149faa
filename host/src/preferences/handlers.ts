/**
 * `host.preferences.set` (SPEC.md "Runtime to host requests"): an extension changes one of its
 * own options as if in Settings. The store announces the change (`onChanged`); the host core
 * then runs `update()` with trigger `preferences`.
 */
import type { Manifest } from "@svc/api";
import type { AsyncHostAnswers } from "@svc/runtime";
import { answering } from "../secrets/index.js";
import { PreferenceRuleError, type PreferenceStore } from "./preference-store.js";

/** `preferences.set`, the host core's `HostServices` member of the same name (the host op). */
export type PreferenceHandlers = AsyncHostAnswers<"preferences.set">;

/**
 * @example
 * const handlers = preferenceHandlers(store, (id) => extensions.manifest(id)); // {"preferences.set"}
 */
export function preferenceHandlers(
  store: PreferenceStore,
  manifestOf: (extensionId: string) => Manifest | undefined,
): PreferenceHandlers {
  return {
    "preferences.set": answering(async ({ extensionId, name, value }) => {
      const manifest = manifestOf(extensionId);
      if (!manifest) throw new PreferenceRuleError(`no extension "${extensionId}" is loaded`);
      // An absent value is not a value of any kind: only null clears.
      if (value === undefined) throw new PreferenceRuleError(`"${name}" needs a value; null clears it`);
      await store.change(manifest, name, value, "extension");
      return {};
    }),
  };
}
