/**
 * Manifest preferences (SPEC.md, "Preferences"): options a person sets in Settings. Each has
 * `name`, `title`, `type` and optional `required`, `placeholder`, `description`, `default` and
 * `blips` (show the option only on blips whose key is, or begins with, one of these).
 */
import { z } from "zod";
import { maxChars, nonEmpty } from "./text.js";
import { displayLine, displayParagraph, nonEmptyDisplayLine } from "../display/display-text.js";
import { LIMITS } from "./limits.js";

/** At most `max` entries, said in the manifest's words ("should have at most 256 choices"). */
export function atMost<T extends z.ZodType>(item: T, max: number, things: string): z.ZodArray<T> {
  return z.array(item).max(max, { error: `should have at most ${max} ${things}` });
}

const title = nonEmptyDisplayLine.pipe(maxChars(LIMITS.manifestTitleChars));

const commonShape = {
  name: nonEmpty.pipe(maxChars(LIMITS.manifestNameChars)),
  title,
  required: z.boolean().optional(),
  placeholder: displayLine.pipe(maxChars(LIMITS.manifestTitleChars)).optional(),
  description: displayParagraph.pipe(maxChars(LIMITS.manifestDescriptionChars)).optional(),
  blips: atMost(nonEmpty.pipe(maxChars(LIMITS.manifestNameChars)), LIMITS.manifestListEntries, "blip keys").optional(),
};

/**
 * Text. With `multiline: true` it holds a few entries, one per line.
 *
 * @example { name: "repos", title: "Repositories", type: "textfield", multiline: true }
 */
export const textfieldPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("textfield"),
  default: z.string().optional(),
  multiline: z.boolean().optional(),
});

/**
 * A secret, kept by the host in the operating system's secret store.
 *
 * @example { name: "token", title: "API token", type: "password", required: true }
 */
export const passwordPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("password"),
  default: z.string().optional(),
});

/** @example { name: "showDrafts", title: "Show drafts", type: "checkbox", default: false } */
export const checkboxPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("checkbox"),
  default: z.boolean().optional(),
});

/** One choice of a dropdown. */
export const dropdownChoiceSchema = z.object({ title, value: maxChars(LIMITS.manifestValueChars) });

/**
 * One of the choices in `data`; the value is the choice's `value`.
 *
 * @example { name: "region", title: "Region", type: "dropdown", data: [{ title: "EU", value: "eu" }], default: "eu" }
 */
export const dropdownPreferenceSchema = z
  .object({
    ...commonShape,
    type: z.literal("dropdown"),
    default: z.string().optional(),
    data: atMost(dropdownChoiceSchema, LIMITS.manifestDropdownChoices, "choices").min(1, {
      error: "should have at least 1 choice",
    }),
  })
  .superRefine((pref, ctx) => {
    const values = pref.data.map((choice) => choice.value);
    if (pref.default !== undefined && !values.includes(pref.default)) {
      ctx.addIssue({
        code: "custom",
        path: ["default"],
        message: `should be one of the choices: ${values.join(", ")}`,
      });
    }
  });

/** @example { name: "threshold", title: "Alert above", type: "number", default: 100 } */
export const numberPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("number"),
  default: z.number().optional(),
});

/**
 * The address of a server the person chooses (a calendar's ICS address, a Home Assistant on the
 * local network). Setting it asks the person to let the extension connect to that server's
 * origin (scheme, host and port); the fence then admits exactly that origin, beside
 * `permissions.network`. Only the person sets it (Settings or `svc-host set`), never the
 * extension, and it has no default: the author cannot know the address.
 *
 * @example { name: "server", title: "Home Assistant address", type: "url", placeholder: "http://192.168.1.20:8123" }
 */
export const urlPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("url"),
  default: z.undefined({ error: "a url option has no default: the person chooses the server" }).optional(),
});

export const PREFERENCE_TYPES = ["textfield", "password", "checkbox", "dropdown", "number", "url"] as const;

export const preferenceSchema = z.discriminatedUnion("type", [
  textfieldPreferenceSchema,
  passwordPreferenceSchema,
  checkboxPreferenceSchema,
  dropdownPreferenceSchema,
  numberPreferenceSchema,
  urlPreferenceSchema,
]);

export type PreferenceType = (typeof PREFERENCE_TYPES)[number];
export type Preference = z.infer<typeof preferenceSchema>;
export type DropdownChoice = z.infer<typeof dropdownChoiceSchema>;

/**
 * Text options are capped like secrets, at 16 KB of UTF-8. SPEC.md sets no cap; ours keeps an
 * extension from filling the support folder through `setPreference`.
 */
export const PREFERENCE_TEXT_MAX_BYTES = LIMITS.secretValueBytes;

/**
 * Why `value` does not fit `preference`, or `undefined` when it does: textfield and password a
 * string (at most 16 KB), checkbox a boolean, number a finite number, dropdown one of its own
 * `data` values. One rule for the app (`host.preferences.set`, stored values read back) and
 * svckit (`validate --prefs`).
 *
 * @example
 * preferenceValueProblem({ name: "region", type: "dropdown", data: [{ title: "EU", value: "eu" }], title: "Region" }, "us")
 * // '"region" should be one of its choices: eu'
 */
export function preferenceValueProblem(preference: Preference, value: unknown): string | undefined {
  const name = JSON.stringify(preference.name);
  switch (preference.type) {
    case "textfield":
    case "password": {
      if (typeof value !== "string") return `${name} should be text (a string)`;
      const bytes = new TextEncoder().encode(value).length;
      return bytes > PREFERENCE_TEXT_MAX_BYTES
        ? `${name} is ${bytes} bytes of text; the most is ${PREFERENCE_TEXT_MAX_BYTES}`
        : undefined;
    }
    case "url":
      return urlValueProblem(name, value);
    case "checkbox":
      return typeof value === "boolean" ? undefined : `${name} should be true or false`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : `${name} should be a finite number`;
    case "dropdown": {
      const choices = preference.data.map((choice) => choice.value);
      return typeof value === "string" && choices.includes(value)
        ? undefined
        : `${name} should be one of its choices: ${choices.join(", ")}`;
    }
  }
}

/** The longest address a `url` option takes. */
export const PREFERENCE_URL_MAX_LENGTH = 2048;

/** Why `value` is not an http or https address a `url` option takes. */
function urlValueProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `${name} should be an address (a string)`;
  if (value.length > PREFERENCE_URL_MAX_LENGTH)
    return `${name} is ${value.length} characters long; the most is ${PREFERENCE_URL_MAX_LENGTH}`;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `${name} should be a full address starting with https:// or http:// (e.g. https://calendar.example.com)`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `${name} should start with https:// or http://, not ${url.protocol}//`;
  if (url.username !== "" || url.password !== "")
    return `${name} should not hold a user name or password; give those in a password option`;
  return undefined;
}

/**
 * The `required` options that have no value (unset, `null` or empty text): the extension cannot
 * do its work yet. The app shows it as the extension's error; `svckit validate` reports it.
 *
 * @example
 * unsetRequiredOptions([{ name: "apiUrl", title: "API URL", type: "textfield", required: true }], { apiUrl: "" })
 * // [{ name: "apiUrl", … }]
 */
export function unsetRequiredOptions(
  preferences: readonly Preference[],
  values: Readonly<Record<string, unknown>>,
): Preference[] {
  return preferences.filter((preference) => {
    if (preference.required !== true) return false;
    const value = Object.hasOwn(values, preference.name) ? values[preference.name] : undefined;
    return value === undefined || value === null || value === "";
  });
}
