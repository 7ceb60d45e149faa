/**
 * What value each kind of preference takes (SPEC.md "Preferences", `host.preferences.set`):
 * textfield a string, checkbox a boolean, number a finite number, dropdown one of its own
 * `data` values, password a string (set only by the person, in Settings). One place, used both
 * when a value is set and when a stored one is read back (a manifest may have changed since).
 */
import type { Preference } from "@svc/api";
import { LIMITS } from "@svc/api";

/**
 * Text preferences are capped like secrets, at 16 KB of UTF-8. SPEC.md sets no cap; ours keeps
 * an extension from filling the support folder through `setPreference`.
 */
export const PREFERENCE_TEXT_MAX_BYTES = LIMITS.secretValueBytes;

/**
 * Why `value` does not fit `preference`, or `undefined` when it does.
 *
 * @example
 * valueProblem({ name: "region", type: "dropdown", data: [{ title: "EU", value: "eu" }], title: "Region" }, "us")
 * // '"region" should be one of its choices: eu'
 */
export function valueProblem(preference: Preference, value: unknown): string | undefined {
  const name = JSON.stringify(preference.name);
  switch (preference.type) {
    case "textfield":
    case "password": {
      if (typeof value !== "string") return `${name} should be text (a string)`;
      const bytes = Buffer.byteLength(value, "utf8");
      return bytes > PREFERENCE_TEXT_MAX_BYTES ? `${name} is ${bytes} bytes of text; the most is ${PREFERENCE_TEXT_MAX_BYTES}` : undefined;
    }
    case "checkbox":
      return typeof value === "boolean" ? undefined : `${name} should be true or false`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : `${name} should be a finite number`;
    case "dropdown": {
      const choices = preference.data.map((choice) => choice.value);
      return typeof value === "string" && choices.includes(value) ? undefined : `${name} should be one of its choices: ${choices.join(", ")}`;
    }
  }
}
